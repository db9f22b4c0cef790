import path from 'node:path';
import { Router } from 'express';
import { sendEncoded } from './encodings';
import type { FrameAssets } from './frame-assets';
import { IMMUTABLE } from './responses';

export const ASSETS_PREFIX = '/assets';

/** The frame's hashed assets. */
export function assetsRouter(deps: { assets: FrameAssets }): Router {
  const router = Router();
  // Content-hashed names: a name always means the same bytes, so every encoding of it is immutable.
  router.get(`${ASSETS_PREFIX}/:name`, (req, res, next) => {
    const name = String(req.params['name']);
    const file = deps.assets.load(name);
    if (!file) return next();
    res.setHeader('Cache-Control', IMMUTABLE);
    res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
    res.type(path.extname(name));
    sendEncoded(req, res, file);
  });
  return router;
}
