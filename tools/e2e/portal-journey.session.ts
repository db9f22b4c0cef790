import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { describeWithChromium, launchChromium } from '@expedition/platform/chromium';
import { launch, type Launched } from './launcher-harness';
import {
  axeSerious,
  snapshotBundles,
  startHostPage,
  startReceiver,
  until,
  type AxeFinding,
  type Listening,
} from './portal-journey.helpers';
import { ensureWidgetBundles, workspaceRoot } from './widget-stub-frame';

/**
 * The set-up of portal-journey.browser.spec.ts: `npm start`'s launcher, Chromium, the operator's page and webhook
 * receiver (every one on ports the OS picks), and the browser steps the journey repeats (a heading, the main
 * navigation, logging in, the provider admin's page of the operator, the delivery log). Screenshots in
 * $TMPDIR/expedition-screens/portal-journey-*.png.
 */
export const describeWithBrowser = describeWithChromium();

const SHOTS = path.join(tmpdir(), 'expedition-screens');
export const WAIT = 60_000;

type Receiver = Awaited<ReturnType<typeof startReceiver>>;
export interface BrowserPage {
  context: BrowserContext;
  page: Page;
}

export interface PortalJourney {
  /** Set once beforeAll has run. */
  platform: Launched;
  host: Listening;
  receiver: Receiver;
  /** The operator's owner's browser (1280 × 900, en-US, clipboard allowed). */
  owner: BrowserPage;
  /** Page errors and CSP violations of every page opened, and axe's serious/critical findings: asserted last. */
  pageErrors: string[];
  axeFindings: AxeFinding[];
  newContext(): Promise<BrowserPage>;
  /** A screenshot for a person to look at, and axe's serious/critical findings kept for the last test. */
  look(page: Page, name: string, frames?: boolean): Promise<void>;
  /** Waits for the page's h1; on a timeout the error says what the page shows instead. */
  heading(page: Page, text: string | RegExp): Promise<void>;
  go(page: Page, navLabel: string, title: string | RegExp): Promise<void>;
  /** The provider admin's page of the operator (logged in once, kept for the suite). */
  adminOperatorPage(): Promise<Page>;
  /** Clicks the delivery log's Refresh until the event's row says `state`. */
  waitForLogRow(page: Page, eventId: string, state: string): Promise<Locator>;
}

/**
 * Starts everything before the suite's tests and stops it after. `snippet` is what the operator's page serves (the
 * journey copies it from the portal); `operatorName` finds the operator on the provider admin's pages.
 */
export function usePortalJourney(options: { snippet: () => string; operatorName: string }): PortalJourney {
  let browser: Browser;
  let admin: BrowserPage | undefined;
  let bundleEnv: Record<string, string> = {};
  const journey = { pageErrors: [] as string[], axeFindings: [] as AxeFinding[] } as unknown as PortalJourney;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    ensureWidgetBundles();
    // The launcher child inherits process.env: serve a private copy of the bundles (see snapshotBundles).
    bundleEnv = await snapshotBundles(workspaceRoot);
    Object.assign(process.env, bundleEnv);
    journey.platform = await launch();
    browser = await launchChromium();
    journey.receiver = await startReceiver();
    journey.host = await startHostPage(options.snippet);
    journey.owner = await newContext();
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await journey.host?.close();
    await journey.receiver?.close();
    await journey.platform?.stop();
    for (const [name, dir] of Object.entries(bundleEnv)) {
      delete process.env[name];
      rmSync(path.dirname(dir), { recursive: true, force: true });
    }
  });

  async function newContext(): Promise<BrowserPage> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: journey.platform.urls.portal });
    const page = await context.newPage();
    page.setDefaultTimeout(WAIT);
    page.on('pageerror', (error) => journey.pageErrors.push(`${page.url()}: ${error.message}`));
    page.on('console', (message) => {
      if (/Content[- ]Security[- ]Policy/i.test(message.text()))
        journey.pageErrors.push(`${page.url()}: ${message.text()}`);
    });
    return { context, page };
  }

  async function look(page: Page, name: string, frames = false): Promise<void> {
    await page.screenshot({ path: path.join(SHOTS, `portal-journey-${name}.png`), fullPage: true });
    journey.axeFindings.push(...(await axeSerious(page, name, frames)));
  }

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
    await page.locator('.loading').first().waitFor({ state: 'detached' });
  }

  async function logIn(page: Page, email: string, password: string, next: string): Promise<void> {
    await page.goto(`${journey.platform.urls.portal}/login?next=${encodeURIComponent(next)}`);
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL((url) => url.pathname === next);
  }

  async function adminOperatorPage(): Promise<Page> {
    const { platform } = journey;
    if (!admin) {
      admin = await newContext();
      await logIn(admin.page, platform.providerAdmin.email, platform.providerAdmin.password, '/admin');
    }
    const page = admin.page;
    await page.goto(`${platform.urls.portal}/admin?q=${encodeURIComponent(options.operatorName)}`);
    await heading(page, 'Operators');
    await page.getByRole('link', { name: options.operatorName }).click();
    await heading(page, options.operatorName);
    await page.locator('.loading').first().waitFor({ state: 'detached' });
    return page;
  }

  async function waitForLogRow(page: Page, eventId: string, state: string) {
    const row = page.locator(`tbody tr[data-event-id="${eventId}"]`);
    await until(
      `the delivery log to show ${eventId} ${state}`,
      async () => {
        if (
          (await row.count()) === 1 &&
          (await row.locator('.svc-badge', { hasText: new RegExp(`^${state}$`) }).count()) === 1
        )
          return true;
        await page.getByRole('button', { name: 'Refresh' }).click();
        return false;
      },
      WAIT,
      500,
    );
    return row;
  }

  return Object.assign(journey, { newContext, look, heading, go, adminOperatorPage, waitForLogRow });
}
