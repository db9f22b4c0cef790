import path from 'node:path';
import express, { type Express } from 'express';
import type { ResolveKey } from '@expedition/auth-publishable-key';
import { errorHandler, faviconRoute, healthRoutes, httpLogger, notFound, requestId } from '@expedition/http-kit';
import { observe, type Observability } from '@expedition/observability';
import type { Logger } from '@expedition/platform';
import { ASSETS_PREFIX, assetsRouter } from './assets.router';
import type { DocumentSettings } from './documents';
import { documentsRouter, FRAME_PATH, HOSTED_QUOTE_PATH } from './documents.router';
import { createFrameAssets } from './frame-assets';
import { createRollingLoader, type PinnedReleases } from './loader-channels';
import { loaderRouter, ROLLING_LOADER_PATH } from './loader.router';

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
  // The request id and the headers of every answer, nosniff among them (libs/http-kit security-headers.ts).
  app.use(requestId());
  app.use(httpLogger(deps.logger));
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

  app.use(loaderRouter({ rolling, releases: deps.releases }));
  app.use(documentsRouter({ assets, settings, resolveKey: deps.resolveKey }));
  app.use(assetsRouter({ assets }));
  app.use(notFound());
  app.use(errorHandler(deps.logger));
  return app;
}
