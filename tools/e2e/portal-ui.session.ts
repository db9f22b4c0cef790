import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { describeWithChromium, launchChromium, runAxe, seriousOrCritical } from '@expedition/platform/chromium';
import { composePortal, loadPortalConfig, type Portal } from '@expedition/app-operator-portal';
import type { Database } from '@expedition/db';
import { createTestDatabase } from '@expedition/db/testing';
import { freePorts } from '@expedition/platform/testing';

/**
 * The set-up of portal-ui.browser.spec.ts: the real portal server composed in-process on a port the OS picks with a
 * test database, Chromium, and the browser steps the suite repeats (a fresh context that records CSP violations and
 * page errors, axe-core and a screenshot at 1280 and 390 px, a heading, the main navigation, logging in).
 */
export const describeWithBrowser = describeWithChromium();

const ROOT = path.resolve(__dirname, '../..');
const SHOTS = path.join(tmpdir(), 'expedition-screens');
const WIDTHS = [1280, 390] as const;
export const PASSWORD = 'glacier-walk-at-dawn-42';

export interface PortalUiSession {
  /** Set once beforeAll has run. */
  readonly db: Database;
  /** The portal's address, http://127.0.0.1:<port>. */
  readonly url: string;
  readonly portal: Portal;
  newContext(colorScheme?: 'light' | 'dark'): Promise<{ context: BrowserContext; page: Page }>;
  audit(page: Page, name: string): Promise<void>;
  heading(page: Page, text: string | RegExp): Promise<void>;
  go(page: Page, navLabel: string, title: string | RegExp): Promise<void>;
  /** Logs `email` in with PASSWORD and waits for the page `next`. */
  logIn(page: Page, email: string, next: string): Promise<void>;
}

/** Starts the portal and Chromium before the suite's tests, stops them after; no CSP violation or page error in any test. */
export function usePortalUi(): PortalUiSession {
  let db: Database;
  let portal: Portal;
  let server: Server;
  let portalUrl: string;
  let browser: Browser;
  const cspViolations: string[] = [];

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    // The server serves dist/browser/portal-ui, kept current by the e2e test target's dependency on the bundle
    // targets. Built here only when missing (running this file alone on a fresh checkout): rebuilding it while other
    // suites of this run serve it would empty the folder under them.
    if (!existsSync(path.join(ROOT, 'dist/browser/portal-ui/manifest.json'))) {
      const built = spawnSync(
        process.execPath,
        [require.resolve('rollup/dist/bin/rollup'), '-c', 'apps/operator-portal/ui/rollup.config.mjs'],
        { cwd: ROOT, encoding: 'utf8' },
      );
      if (built.status !== 0) throw new Error(`portal-ui bundle failed:\n${built.stderr}`);
    }
    db = await createTestDatabase();
    // The widget, embed and quote addresses are only printed into snippets: nothing listens there.
    const ports = await freePorts(4);
    const port = ports[0]!;
    portalUrl = `http://127.0.0.1:${port}`;
    const config = loadPortalConfig({
      PORTAL_PORT: String(port),
      PORTAL_URL: portalUrl,
      WIDGET_URL: `http://127.0.0.1:${ports[1]}`,
      EMBED_URL: `http://127.0.0.1:${ports[2]}`,
      QUOTE_API_URL: `http://127.0.0.1:${ports[3]}`,
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'portal-ui-e2e-')),
      PORTAL_UI_DIR: path.join(ROOT, 'dist/browser/portal-ui'),
    });
    portal = composePortal({ config, db, logger: pino({ level: 'silent' }) });
    server = await new Promise<Server>((resolve) => {
      const s = portal.app.listen(port, '127.0.0.1', () => resolve(s));
    });
    browser = await launchChromium();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    await db?.close();
  });

  afterEach(() => {
    expect(cspViolations).toEqual([]);
  });

  async function newContext(colorScheme: 'light' | 'dark' = 'light'): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: portalUrl });
    const page = await context.newPage();
    // Two cores shared with other suites: argon2 and PostgreSQL can be slow; waits are for states, never for times.
    page.setDefaultTimeout(60_000);
    page.on('console', (message) => {
      if (/Content[- ]Security[- ]Policy/i.test(message.text())) cspViolations.push(message.text());
    });
    page.on('pageerror', (error) => cspViolations.push(`page error: ${error.message}`));
    return { context, page };
  }

  /** axe-core on the current page at both widths (injected through the DevTools protocol, so the page's CSP stays on), and a screenshot of each. */
  async function audit(page: Page, name: string): Promise<void> {
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      const violations = (await runAxe(page)).violations.map(({ id, impact, help, nodes }) => ({
        id,
        impact,
        help,
        targets: nodes.map((n) => n.target.join(' ')),
      }));
      await page.screenshot({ path: path.join(SHOTS, `portal-${name}-${width}.png`), fullPage: true });
      // Nothing makes the page wider than the window (a long key or URL wraps instead).
      const pageWidth = await page.evaluate(() => document.documentElement.scrollWidth);
      expect({ screen: `${name} at ${width}px`, pageWidth }).toEqual({
        screen: `${name} at ${width}px`,
        pageWidth: width,
      });
      const serious = seriousOrCritical(violations);
      expect({ screen: `${name} at ${width}px`, serious }).toEqual({ screen: `${name} at ${width}px`, serious: [] });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  }

  /** Waits for the page's h1; on a timeout the error says what the page shows instead. */
  const heading = (page: Page, text: string | RegExp) =>
    page
      .getByRole('heading', { level: 1, name: text })
      .waitFor()
      .catch(async (error: Error) => {
        throw new Error(
          `${error.message}\n--- ${page.url()} says:\n${await page
            .locator('body')
            .innerText()
            .catch(() => '?')}`,
        );
      });

  async function go(page: Page, navLabel: string, title: string | RegExp): Promise<void> {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: navLabel, exact: true }).click();
    await heading(page, title);
  }

  async function logIn(page: Page, email: string, next: string): Promise<void> {
    await page.goto(`${portalUrl}/login?next=${encodeURIComponent(next)}`);
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL((url) => url.pathname === next);
  }

  return {
    get db() {
      return db;
    },
    get portal() {
      return portal;
    },
    get url() {
      return portalUrl;
    },
    newContext,
    audit,
    heading,
    go,
    logIn,
  };
}

export async function expectCount(locator: Locator, count: number): Promise<void> {
  for (let i = 0; i < 100 && (await locator.count()) !== count; i++) await new Promise((r) => setTimeout(r, 100));
  expect(await locator.count()).toBe(count);
}
