import path from 'node:path';
import express, { type Express, type Request, type Response } from 'express';
import { parsePublishableKey, type ResolveKey, type ResolvedKey } from '@expedition/auth-publishable-key';
import type { WidgetBootData } from '@expedition/contracts/widget-boot';
import { errorHandler, faviconRoute, healthRoutes, httpLogger, notFound, requestId } from '@expedition/http-kit';
import { negotiateRenderLocale } from '@expedition/i18n';
import { observe, type Observability } from '@expedition/observability';
import type { Logger } from '@expedition/platform';
import {
  decideFrame,
  decideHosted,
  documentCsp,
  prefillFromQuery,
  renderDocument,
  type DocumentSettings,
} from './documents';
import { createFrameAssets } from './frame-assets';
import { sendEncoded } from './encodings';
import { createRollingLoader, PINNED_VERSION, type LoaderFile, type PinnedReleases } from './loader-channels';

export const ROLLING_LOADER_PATH = '/widget.js';
export const FRAME_PATH = '/frame';
export const HOSTED_QUOTE_PATH = '/quote';
export const ASSETS_PREFIX = '/assets';

export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** The widget build version when no published release names one. */
export const DEFAULT_WIDGET_VERSION = '1.0.0';

export interface WidgetIframeDeps {
  /** Resolves when the database answers (the key store). */
  ready: () => Promise<void>;
  logger: Logger;
  /** Publishable key -> valid key or null: the same cached resolver as the embed gate (revocation bound 5 s). */
  resolveKey: ResolveKey;
  /** embed-api's public base URL (boot data) and origin (CSP connect-src). */
  embedUrl: string;
  embedOrigin: string;
  /** The portal origin(s): test keys may be framed there. */
  testDashboardOrigins: readonly string[];
  payments: DocumentSettings['payments'];
  /** Directory of the loader build (widget.js, the rolling channel). */
  loaderDir: string;
  /** Directory of the frame build (manifest.json + hashed assets). */
  frameDir: string;
  /** Pinned loaders, verified at start (`loadPinnedReleases`). */
  releases: PinnedReleases;
  /** Reported in the boot data; defaults to the releases' current version, else 1.0.0. */
  version?: string;
  /** Express `trust proxy`: proxies in front (a number) or their addresses (docs: README, TRUST_PROXY). */
  trustProxy?: number | string;
  /** Metrics and tracing of this process; absent: none, at no cost. */
  observability?: Observability;
}

/** Builds the widget server. No side effects: no listening, no timers, no connections. */
export function createApp(deps: WidgetIframeDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  if (deps.trustProxy) app.set('trust proxy', deps.trustProxy);

  const rolling = createRollingLoader(path.join(deps.loaderDir, 'widget.js'));
  const assets = createFrameAssets(deps.frameDir);
  const settings: DocumentSettings = {
    embedUrl: deps.embedUrl,
    embedOrigin: deps.embedOrigin,
    testDashboardOrigins: deps.testDashboardOrigins,
    payments: deps.payments,
    version: deps.version ?? deps.releases.current ?? DEFAULT_WIDGET_VERSION,
  };

  async function ready(): Promise<void> {
    await deps.ready();
    if (!rolling()) throw new Error('the loader is not built (widget.js missing)');
    if (!assets.manifest()) throw new Error('the frame is not built (manifest.json missing)');
    if (deps.releases.refused.length > 0) throw new Error('a pinned loader differs from its manifest');
  }

  for (const handler of observe(deps.observability, 'widget-iframe')) app.use(handler);
  app.use(requestId());
  app.use(httpLogger(deps.logger));
  app.use((_req, res, next) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    next();
  });
  app.use(healthRoutes({ ready }));
  app.use(faviconRoute());
  app.get('/', (_req, res) => {
    res.json({
      service: 'widget-iframe',
      routes: [
        `GET ${ROLLING_LOADER_PATH}`,
        'GET /widget/<x.y.z>.js',
        `GET ${FRAME_PATH}?pk=&instance=&parent=`,
        `GET ${HOSTED_QUOTE_PATH}?pk=`,
        `GET ${ASSETS_PREFIX}/<file>`,
      ],
      pinnedVersions: [...deps.releases.versions.keys()],
      currentVersion: deps.releases.current ?? null,
    });
  });

  // ---- loader channels (SERVICE-SPEC §9) ------------------------------------------------------------------------
  app.get(ROLLING_LOADER_PATH, (req, res) => {
    const file = rolling();
    if (!file) return unavailable(res, 'The widget loader is not built yet.');
    sendLoader(req, res, file, 'no-cache');
  });

  app.get('/widget/:file', (req, res, next) => {
    const match = /^(.+)\.js$/.exec(req.params['file'] ?? '');
    const version = match?.[1];
    const file = version && PINNED_VERSION.test(version) ? deps.releases.versions.get(version) : undefined;
    if (!file) return next();
    sendLoader(req, res, file, IMMUTABLE);
  });

  // ---- documents ----------------------------------------------------------------------------------------------
  app.get(FRAME_PATH, async (req, res) => {
    const bundle = assets.bundleFor('frame');
    if (!bundle) return unavailable(res, 'The widget is not built yet.');
    const presentedKey = queryString(req, 'pk') ?? '';
    const key = await resolve(presentedKey);
    const decision = decideFrame(
      { presentedKey, key, parent: queryString(req, 'parent'), instanceId: queryString(req, 'instance') },
      settings,
    );
    logDocument(req, decision.boot, key);
    // The browser's language until the page's MountConfig.locale arrives with svc:frame.init.
    const lang = negotiateRenderLocale({ acceptLanguage: req.get('accept-language') });
    sendDocument(
      res,
      documentCsp(decision.frameAncestors, settings),
      renderDocument({ ...decision.boot, locale: lang }, bundle, lang),
      lang,
    );
  });

  app.get(HOSTED_QUOTE_PATH, async (req, res) => {
    const bundle = assets.bundleFor('hosted');
    if (!bundle) return unavailable(res, 'The widget is not built yet.');
    const presentedKey = queryString(req, 'pk') ?? '';
    const key = await resolve(presentedKey);
    const boot = decideHosted(
      { presentedKey, key, prefill: prefillFromQuery(req.query as Record<string, unknown>) },
      settings,
    );
    logDocument(req, boot, key);
    res.setHeader('X-Frame-Options', 'DENY');
    // `?locale=` (a link in the operator's language, or the page's language switch), else the browser's.
    const lang = negotiateRenderLocale({
      explicit: [queryString(req, 'locale')],
      acceptLanguage: req.get('accept-language'),
    });
    sendDocument(res, documentCsp("'none'", settings), renderDocument({ ...boot, locale: lang }, bundle, lang), lang);
  });

  // ---- hashed frame assets ------------------------------------------------------------------------------------
  // Content-hashed names: a name always means the same bytes, so every encoding of it is immutable.
  app.get(`${ASSETS_PREFIX}/:name`, (req, res, next) => {
    const name = String(req.params['name']);
    const file = assets.load(name);
    if (!file) return next();
    res.setHeader('Cache-Control', IMMUTABLE);
    res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
    res.type(path.extname(name));
    sendEncoded(req, res, file);
  });

  app.use(notFound());
  app.use(errorHandler(deps.logger));
  return app;

  /** Unparseable keys never reach the store; a store failure propagates (500), never a refusal that looks like revocation. */
  async function resolve(presented: string): Promise<ResolvedKey | null> {
    const parsed = parsePublishableKey(presented);
    return parsed ? deps.resolveKey(parsed.key) : null;
  }

  function logDocument(req: Request, boot: WidgetBootData, key: ResolvedKey | null): void {
    if (boot.state === 'ok') return;
    req.log?.info(
      { kind: boot.kind, refusal: boot.refusal?.code, keyId: key?.keyId ?? null, parent: boot.parentOrigin ?? null },
      'widget document refused',
    );
  }
}

/** A loader in the negotiated encoding (brotli, gzip or identity; encodings.ts), with its channel's caching. */
function sendLoader(req: Request, res: Response, file: LoaderFile, cacheControl: string): void {
  res.setHeader('Cache-Control', cacheControl);
  // A public script, loaded by any operator's page: readable cross-origin (SRI, COEP pages), never with credentials.
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
  res.type('text/javascript; charset=utf-8');
  sendEncoded(req, res, file);
}

function sendDocument(res: Response, csp: string, html: string, lang: string): void {
  res.setHeader('Content-Security-Policy', csp);
  res.setHeader('Content-Language', lang);
  // The CSP (frame-ancestors) and the boot data depend on live key data: never cached anywhere.
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Referrer-Policy', 'strict-origin-when-cross-origin');
  res.type('text/html; charset=utf-8').send(html);
}

function unavailable(res: Response, message: string): void {
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Retry-After', '5');
  res.status(503).type('text/plain; charset=utf-8').send(message);
}

/** One string value of a query parameter (a repeated parameter counts as absent). */
function queryString(req: Request, name: string): string | undefined {
  const value: unknown = req.query[name];
  return typeof value === 'string' ? value.trim() : undefined;
}
