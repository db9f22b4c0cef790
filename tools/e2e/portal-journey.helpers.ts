/**
 * Helpers of portal-journey.browser.spec.ts: the operator's own servers (a page on its allowed origin serving the
 * pasted snippet, a webhook receiver recording raw bodies), axe-core on a page, polling for a state, and buying on the
 * operator's page through the widget.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import express from 'express';
import type { FrameLocator, Page } from 'playwright-core';
import { runAxe, seriousOrCritical } from '@expedition/platform/chromium';

export interface Received {
  rawBody: Buffer;
  signature: string | undefined;
  body: Record<string, unknown>;
}

export interface Listening {
  url: string;
  close(): Promise<void>;
}

/** Listens on a port the OS picks (127.0.0.1). */
async function listenOn(app: express.Express): Promise<Listening> {
  const server = await new Promise<Server>((resolve, reject) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
    s.once('error', reject);
  });
  return {
    url: `http://localhost:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The operator's web page: exactly the snippet copied from the portal, inside a minimal document. No CSP header. */
export async function startHostPage(snippet: () => string): Promise<Listening> {
  const app = express();
  app.get('/', (_req, res) => {
    res
      .type('html')
      .send(
        `<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Polar tours: book your voyage</title>\n</head>\n<body>\n<main>\n<h1>Antarctic voyage</h1>\n${snippet()}\n</main>\n</body>\n</html>\n`,
      );
  });
  return listenOn(app);
}

/** The operator's webhook endpoint: answers 200 and keeps every request's raw body and X-SVC-Signature. */
export async function startReceiver(): Promise<Listening & { received: Received[]; path: string }> {
  const received: Received[] = [];
  const path = '/hooks/expedition';
  const app = express();
  app.post(path, express.raw({ type: () => true, limit: '1mb' }), (req, res) => {
    const rawBody = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(rawBody.toString('utf8'));
    } catch {
      // kept as {}: the test fails on the missing fields
    }
    received.push({ rawBody, signature: req.get('X-SVC-Signature'), body });
    res.sendStatus(200);
  });
  const listening = await listenOn(app);
  return { ...listening, received, path };
}

/** Polls `probe` until it returns a value other than undefined/false; the error names what was awaited. */
export async function until<T>(
  what: string,
  probe: () => Promise<T | undefined | false> | T | undefined | false,
  timeoutMs = 60_000,
  everyMs = 250,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value as T;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

export interface AxeFinding {
  screen: string;
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/**
 * axe-core (WCAG 2.1 A/AA) on the page as it is, injected through the DevTools protocol (the page's CSP stays on);
 * returns the serious and critical findings. With `frames`, axe also runs in every frame (the widget's iframe).
 */
export async function axeSerious(page: Page, screen: string, frames = false): Promise<AxeFinding[]> {
  const { passes, violations } = await runAxe(page, { frames });
  // A run that checked nothing would hide every violation.
  if (passes === 0) throw new Error(`axe-core checked nothing on ${screen}`);
  return seriousOrCritical(violations).map(({ id, impact, help, nodes }) => ({
    screen,
    id,
    impact,
    help,
    targets: nodes.map((n) => n.target.join(' ')),
  }));
}

/** POST /api/embed/quote as a browser on `origin` would, with `key`; returns the status. */
export async function embedQuoteStatus(embedUrl: string, key: string, origin: string): Promise<number> {
  const start = new Date(Date.now() + 60 * 86_400_000).toISOString().slice(0, 10);
  const res = await fetch(`${embedUrl}/api/embed/quote`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: origin, 'X-SVC-Publishable-Key': key },
    body: JSON.stringify({
      destination: 'antarctica',
      tripCost: 12000,
      travelers: 1,
      travelerAges: [46],
      residence: 'GB',
      email: 'traveler@tours.example',
      startDate: start,
      durationDays: 14,
    }),
  });
  await res.arrayBuffer();
  return res.status;
}

/**
 * Copies the built browser bundles the launcher serves (portal UI, widget frame, loader) into a private directory and
 * returns the environment that points the launcher at them: other work on this machine rebuilds dist/browser while we
 * run (rollup empties the folder first), and a lazy chunk whose hash changed mid-journey would 404.
 */
export async function snapshotBundles(workspaceRoot: string): Promise<Record<string, string>> {
  const into = mkdtempSync(path.join(tmpdir(), 'portal-journey-bundles-'));
  const dist = path.join(workspaceRoot, 'dist/browser');
  const complete = (dir: string): boolean => {
    const manifestFile = path.join(dir, 'manifest.json');
    if (!existsSync(manifestFile)) return false;
    try {
      const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as { files: Record<string, { bytes: number }> };
      return Object.entries(manifest.files).every(
        ([file, { bytes }]) => existsSync(path.join(dir, file)) && statSync(path.join(dir, file)).size === bytes,
      );
    } catch {
      return false;
    }
  };
  for (const name of ['portal-ui', 'widget-frame']) {
    await until(
      `a complete copy of dist/browser/${name}`,
      () => {
        if (!complete(path.join(dist, name))) return false;
        cpSync(path.join(dist, name), path.join(into, name), { recursive: true, force: true });
        return complete(path.join(into, name));
      },
      120_000,
      1_000,
    );
  }
  await until(
    'dist/browser/widget-loader/widget.js',
    () => {
      const file = path.join(dist, 'widget-loader/widget.js');
      if (!existsSync(file) || statSync(file).size === 0) return false;
      cpSync(path.join(dist, 'widget-loader'), path.join(into, 'widget-loader'), { recursive: true, force: true });
      return statSync(path.join(into, 'widget-loader/widget.js')).size > 0;
    },
    120_000,
    1_000,
  );
  return {
    PORTAL_UI_DIR: path.join(into, 'portal-ui'),
    WIDGET_FRAME_DIR: path.join(into, 'widget-frame'),
    WIDGET_LOADER_DIR: path.join(into, 'widget-loader'),
  };
}

export type WidgetEvent = { name: string; event: Record<string, unknown> };

/**
 * On the operator's page with the Tier 3 snippet: records the widget's events, quotes a 14-day Antarctic trip, and buys
 * the recommended plan with test card 4242 (`look` takes the plans' screenshot). Resolves once a payment, quote or
 * widget error event arrived, with the plan bought and every event recorded.
 */
export async function buyOnOperatorPage(
  page: Page,
  look: (page: Page, name: string, frames?: boolean) => Promise<void>,
  timeout: number,
): Promise<{ planId: string | null; events: WidgetEvent[] }> {
  await page.evaluate(() => {
    const w = window as unknown as {
      __events: { name: string; event: unknown }[];
      SvcWidget: { on(name: string, fn: (e: unknown) => void): void };
    };
    w.__events = [];
    for (const name of [
      'quote.ready',
      'quote.selected',
      'quote.error',
      'payment.succeeded',
      'payment.failed',
      'widget.error',
    ])
      w.SvcWidget.on(name, (event) => w.__events.push({ name, event }));
  });
  const widget: FrameLocator = page.frameLocator('#svc-insurance iframe');
  const start = new Date(Date.now() + 60 * 86_400_000);
  const day = (d: Date) => d.toISOString().slice(0, 10);
  await widget.locator('#svc-destination').selectOption('antarctica');
  await widget.locator('#svc-startDate').fill(day(start));
  await widget.locator('#svc-endDate').fill(day(new Date(start.getTime() + 14 * 86_400_000)));
  await widget.locator('#svc-age-0').fill('46');
  await widget.locator('#svc-tripCost').fill('12000');
  await widget.locator('#svc-residence').selectOption('GB');
  await widget.locator('#svc-email').fill('traveler@polar-tours.example');
  await widget.locator('form button[type=submit]').click();
  const card = widget.locator('article.svc-plan--recommended');
  await card.waitFor();
  await look(page, 'host-plans', true);
  const planId = await card.getAttribute('data-plan-id');

  await card.getByRole('button', { name: /^Buy/ }).click();
  await widget.locator('#svc-card-number').fill('4242 4242 4242 4242');
  await widget.locator('#svc-card-expiry').fill('12/30');
  await widget.locator('#svc-card-cvc').fill('123');
  await widget.getByRole('button', { name: /^Pay/ }).click();
  await page
    .waitForFunction(
      () =>
        (window as unknown as { __events: { name: string }[] }).__events.some((e) =>
          /^(payment\.|quote\.error|widget\.error)/.test(e.name),
        ),
      undefined,
      { timeout },
    )
    .catch(async (error: Error) => {
      throw new Error(
        `${error.message}\n--- the widget says:\n${await widget
          .locator('body')
          .innerText()
          .catch(() => '?')}`,
      );
    });
  const events = await page.evaluate(
    () => (window as unknown as { __events: { name: string; event: Record<string, unknown> }[] }).__events,
  );
  return { planId, events };
}
