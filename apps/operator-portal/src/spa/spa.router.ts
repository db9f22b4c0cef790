import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { Router } from 'express';

/** dist/browser/portal-ui/manifest.json, as tools/browser/rollup-preset.mjs (`browserApp`) writes it. */
export interface UiManifest {
  entries: Record<string, string>;
  css: Record<string, string>;
  files: Record<string, { bytes: number }>;
}

/** Each segment of a served name: safe characters, never `.`/`..`. */
const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;
const SERVED = /\.(?:js|css|map|svg|png|woff2|ico)$/;

export interface UiAssets {
  /** The current manifest (re-read when the file changes, so a rebuild is picked up); null when the UI is not built. */
  manifest(): UiManifest | null;
  /** Absolute path of a file the manifest lists, or null. */
  resolve(name: string): string | null;
}

export function createUiAssets(dir: string): UiAssets {
  const manifestPath = path.join(dir, 'manifest.json');
  let cached: { stamp: string; manifest: UiManifest } | null = null;

  function manifest(): UiManifest | null {
    try {
      const stat = statSync(manifestPath);
      const stamp = `${stat.size}:${stat.mtimeMs}`;
      if (cached?.stamp !== stamp) {
        const raw = JSON.parse(readFileSync(manifestPath, 'utf8')) as Partial<UiManifest>;
        const rec = (v: unknown) =>
          v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, never>) : {};
        cached = { stamp, manifest: { entries: rec(raw.entries), css: rec(raw.css), files: rec(raw.files) } };
      }
      return cached.manifest;
    } catch {
      cached = null;
      return null;
    }
  }

  function resolve(name: string): string | null {
    if (!SERVED.test(name) || !name.split('/').every((s) => SEGMENT.test(s) && s !== '..')) return null;
    const current = manifest();
    if (!current || !Object.prototype.hasOwnProperty.call(current.files, name)) return null;
    return path.join(dir, name);
  }

  return { manifest, resolve };
}

const escapeAttr = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The HTML shell: stylesheets, the module entry, `<div id="app">`. No inline script or style (strict CSP). */
export function renderShell(manifest: UiManifest | null): string {
  const script = manifest
    ? (manifest.entries['main'] ?? manifest.entries['portal'] ?? Object.values(manifest.entries)[0])
    : undefined;
  const styles = manifest ? Object.values(manifest.css) : [];
  const head = [
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="color-scheme" content="light dark">',
    '<meta name="referrer" content="same-origin">',
    '<title>Operator portal · Expedition Insurance</title>',
    ...styles.map((file) => `<link rel="stylesheet" href="/assets/${escapeAttr(file)}">`),
    ...(script ? [`<script type="module" src="/assets/${escapeAttr(script)}"></script>`] : []),
  ];
  const body = script
    ? '<div id="app"></div><noscript>The operator portal needs JavaScript.</noscript>'
    : '<div id="app"><main><h1>Operator portal</h1><p>The portal UI is not built yet. Run <code>npx nx run portal-ui:bundle</code> and reload.</p></main></div>';
  return `<!doctype html>\n<html lang="en">\n<head>\n${head.join('\n')}\n</head>\n<body>\n${body}\n</body>\n</html>\n`;
}

/**
 * `/assets/*`: files of the manifest, immutable (content-hashed names). Every other GET that is not an API path:
 * the HTML shell (`Cache-Control: no-cache`, so a deploy is picked up at once). Mount last.
 */
export function spaRouter(assets: UiAssets): Router {
  const router = Router();
  router.get('/assets/{*name}', (req, res, next) => {
    const file = assets.resolve(req.path.slice('/assets/'.length));
    if (!file) return next();
    res.sendFile(file, { immutable: true, maxAge: '365d', dotfiles: 'deny', lastModified: false });
  });
  router.use('/assets', (_req, res) => {
    res.status(404).type('text/plain').setHeader('Cache-Control', 'no-store').send('Not found');
  });
  router.get('/{*path}', (req, res, next) => {
    if (req.path.startsWith('/api/') || req.path === '/api') return next();
    if (!req.accepts('html')) return next();
    res.setHeader('Cache-Control', 'no-cache');
    res.type('html').send(renderShell(assets.manifest()));
  });
  return router;
}
