/**
 * The Chromium suites' world, on the ports the suite gives (worldUrls in world-config.ts; this project's ports are
 * 13950–13999):
 * - a widget server (WIDGET) serving the real bundle (dist/browser/widget-frame) as the iframe document and the hosted
 *   page, with a boot block, a strict CSP and `frame-ancestors` = the boot's parent origin;
 * - a FAKE embed API (EMBED, fake-embed-api.ts) recording every request;
 * - a host page (HOST, another origin, host-page.ts) that embeds the frame and plays the loader's part of the
 *   protocol; FOREIGN is a third origin.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import path from 'node:path';
import express from 'express';
import type { WidgetBootData } from '@expedition/contracts/widget-boot';
import { createFakeEmbedApi } from './fake-embed-api';
import { createHostPage } from './host-page';
import { DIST, KEYS, type RecordedRequest, type Scenario, type WorldUrls } from './world-config';

export interface World {
  requests: RecordedRequest[];
  scenario: Scenario;
  /** Boot overrides per publishable key (e.g. a parentOrigin that is not the real parent). */
  bootOverrides: Map<string, Partial<WidgetBootData>>;
  close(): Promise<void>;
}

function listen(app: express.Express, port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = app.listen(port, '127.0.0.1', () => resolve(server));
    server.once('error', reject);
  });
}

const escapeJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

function bootFor(
  embedUrl: string,
  kind: 'frame' | 'hosted',
  key: string,
  instanceId: string | undefined,
  parent: string | undefined,
  overrides?: Partial<WidgetBootData>,
): WidgetBootData {
  const allowedTier = key === KEYS.tier2 ? 2 : key === KEYS.tier1 ? 1 : 3;
  const known = (Object.values(KEYS) as string[]).includes(key) && key !== KEYS.revoked;
  return {
    kind,
    state: known ? 'ok' : 'refused',
    ...(known ? {} : { refusal: { code: 'unauthorized' as const, message: 'This publishable key is not valid.' } }),
    publishableKey: key,
    ...(kind === 'frame' ? { instanceId, parentOrigin: parent } : {}),
    embedUrl,
    mode: 'test',
    allowedTier,
    payments: { provider: 'simulated' },
    version: '1.0.0',
    operatorName: 'Polar Journeys Ltd',
    ...overrides,
  } as WidgetBootData;
}

function documentHtml(
  boot: WidgetBootData,
  manifest: { entries: Record<string, string>; css: Record<string, string> },
  title: string,
): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title><link rel="stylesheet" href="/assets/${manifest.css['frame']}">
<script type="module" src="/assets/${manifest.entries['frame']}"></script></head>
<body class="svc-${boot.kind}"><div id="svc-root"></div><script type="application/json" id="svc-boot">${escapeJson(boot)}</script></body></html>`;
}

export async function startWorld(urls: WorldUrls): Promise<World> {
  const requests: RecordedRequest[] = [];
  const scenario: Scenario = { pendingPolls: 1, options429Once: false };
  const bootOverrides = new Map<string, Partial<WidgetBootData>>();
  const manifestFile = path.join(DIST, 'manifest.json');
  if (!existsSync(manifestFile)) throw new Error('Build the bundle first: npx nx run widget-frame:bundle');
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));

  // The widget server: the real bundle as the iframe document and the hosted page.
  const widget = express();
  const csp = (ancestors: string) =>
    `default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src ${urls.EMBED}; frame-ancestors ${ancestors}; base-uri 'none'; form-action 'none'`;
  widget.get('/frame', (req, res) => {
    const key = String(req.query['pk'] ?? '');
    const parent = typeof req.query['parent'] === 'string' ? req.query['parent'] : undefined;
    const boot = bootFor(urls.EMBED, 'frame', key, String(req.query['instance'] ?? ''), parent, bootOverrides.get(key));
    res
      .set('Content-Security-Policy', csp(boot.state === 'ok' ? (parent ?? "'none'") : '*'))
      .set('Cache-Control', 'no-store')
      .type('html')
      .send(documentHtml(boot, manifest, 'Travel insurance quote'));
  });
  widget.get('/quote', (req, res) => {
    const key = String(req.query['pk'] ?? '');
    const prefill: Record<string, unknown> = {};
    for (const k of ['destination', 'startDate', 'endDate', 'residence', 'state', 'currency'] as const)
      if (typeof req.query[k] === 'string') prefill[k] = req.query[k];
    for (const k of ['travelers', 'tripCost'] as const)
      if (typeof req.query[k] === 'string') prefill[k] = Number(req.query[k]);
    // As the widget server does: the hosted page's ?locale= becomes the boot data's language.
    const locale = typeof req.query['locale'] === 'string' ? { locale: req.query['locale'] } : {};
    const boot = bootFor(urls.EMBED, 'hosted', key, undefined, undefined, {
      prefill,
      ...locale,
      ...bootOverrides.get(key),
    });
    res
      .set('Content-Security-Policy', csp("'none'"))
      .type('html')
      .send(documentHtml(boot, manifest, 'Travel insurance – Polar Journeys Ltd'));
  });
  widget.use('/assets', express.static(DIST, { immutable: true, maxAge: '1y', index: false }));

  const servers = await Promise.all([
    listen(widget, urls.ports.widget),
    listen(createFakeEmbedApi(urls, requests, scenario), urls.ports.embed),
    listen(createHostPage(urls), urls.ports.host),
    listen(createHostPage(urls), urls.ports.foreign),
  ]);
  return {
    requests,
    scenario,
    bootOverrides,
    close: async () => {
      await Promise.all(
        servers.map(
          (s) =>
            new Promise<void>((resolve) => {
              s.close(() => resolve());
              s.closeAllConnections();
            }),
        ),
      );
    },
  };
}
