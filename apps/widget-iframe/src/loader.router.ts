import { Router, type Request, type Response } from 'express';
import { sendEncoded } from './encodings';
import { PINNED_VERSION, type LoaderFile, type PinnedReleases } from './loader-channels';
import { IMMUTABLE, unavailable } from './responses';

export const ROLLING_LOADER_PATH = '/widget.js';

/** The loader channels (docs/contract.md, Versioning): rolling `/widget.js` and pinned `/widget/<x.y.z>.js`. */
export function loaderRouter(deps: { rolling: () => LoaderFile | null; releases: PinnedReleases }): Router {
  const router = Router();
  router.get(ROLLING_LOADER_PATH, (req, res) => {
    const file = deps.rolling();
    if (!file) return unavailable(res, 'The widget loader is not built yet.');
    sendLoader(req, res, file, 'no-cache');
  });

  router.get('/widget/:file', (req, res, next) => {
    const match = /^(.+)\.js$/.exec(req.params['file'] ?? '');
    const version = match?.[1];
    const file = version && PINNED_VERSION.test(version) ? deps.releases.versions.get(version) : undefined;
    if (!file) return next();
    sendLoader(req, res, file, IMMUTABLE);
  });
  return router;
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
