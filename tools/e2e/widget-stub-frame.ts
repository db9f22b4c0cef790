/**
 * Test helpers for the widget loader in Chromium (widget-*.browser.spec.ts):
 *
 * - `startStubWidget()`: a tiny stand-in for the widget server on ports the OS picks: the built loader at /widget.js, a
 *   stub /frame document that speaks the `svc:` protocol (driven by the test through `window.stub`), with a
 *   `frame-ancestors` CSP the test controls, an impostor frame on the embed origin, a foreign origin, and host pages.
 * - `POST_MESSAGE_PROBE`: an init script for every document of a page that records the target origin of every
 *   postMessage (`window.__svcPosts`), so a test can prove neither side ever posts to "*".
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { Server } from 'node:http';
import path from 'node:path';
import express from 'express';
import { freePorts } from '@expedition/platform/testing';

export const workspaceRoot = path.resolve(__dirname, '../..');
export const LOADER_BUILD = path.join(workspaceRoot, 'dist/browser/widget-loader/widget.js');

/**
 * Builds the loader bundle (rollup, ~1 s) when it is missing (this file run alone on a fresh checkout). Otherwise the
 * e2e test target's dependency on the bundle targets has built it from the current source, and rewriting it here
 * while other suites of the same run serve it could hand them a half-written file.
 */
export function buildLoader(): void {
  if (existsSync(LOADER_BUILD)) return;
  execFileSync(
    process.execPath,
    [
      path.join(workspaceRoot, 'node_modules/rollup/dist/bin/rollup'),
      '-c',
      'apps/widget-iframe/loader/rollup.config.mjs',
    ],
    {
      cwd: workspaceRoot,
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
}

/**
 * Builds the loader and the frame bundles if they are missing (a fresh checkout running only the e2e project): the
 * launcher serves them from dist/browser. Present bundles are left alone (nx's bundle targets keep them current).
 */
export function ensureWidgetBundles(): void {
  const rollup = path.join(workspaceRoot, 'node_modules/rollup/dist/bin/rollup');
  const bundles: [string, string][] = [
    [LOADER_BUILD, 'apps/widget-iframe/loader/rollup.config.mjs'],
    [path.join(workspaceRoot, 'dist/browser/widget-frame/manifest.json'), 'apps/widget-iframe/frame/rollup.config.mjs'],
  ];
  for (const [output, config] of bundles) {
    if (!existsSync(output))
      execFileSync(process.execPath, [rollup, '-c', config], {
        cwd: workspaceRoot,
        stdio: ['ignore', 'ignore', 'inherit'],
      });
  }
}

/**
 * Wraps, in the document it runs in, every way to reach another window's postMessage (iframe.contentWindow,
 * window.parent, MessageEvent.source, window.postMessage) with a recorder of the target origin. Wrappers are cached
 * per window so identity checks (`event.source === iframe.contentWindow`, `=== window.parent`) still hold.
 */
export const POST_MESSAGE_PROBE = `(() => {
  const posts = (window.__svcPosts = []);
  const wrappers = new WeakMap();
  const wrap = (win) => {
    if (!win || win === window) return win;
    let w = wrappers.get(win);
    if (!w) {
      w = new Proxy({}, { get: (_t, prop) => prop === 'postMessage'
        ? (message, targetOrigin, transfer) => { posts.push({ targetOrigin: typeof targetOrigin === 'object' ? targetOrigin && targetOrigin.targetOrigin : targetOrigin, type: message && message.type }); return win.postMessage(message, targetOrigin, transfer); }
        : win[prop] });
      wrappers.set(win, w);
      wrappers.set(w, w);
    }
    return w;
  };
  const getter = (proto, name, map) => {
    const d = Object.getOwnPropertyDescriptor(proto, name);
    if (d && d.get) Object.defineProperty(proto, name, { configurable: true, get() { return map(d.get.call(this)); } });
  };
  getter(HTMLIFrameElement.prototype, 'contentWindow', wrap);
  getter(MessageEvent.prototype, 'source', (s) => (s === window ? s : wrap(s)));
  // (window.top is unforgeable: a frame posting through it is not recorded; ours post to window.parent.)
  const parent = window.parent;
  Object.defineProperty(window, 'parent', { configurable: true, get: () => (parent === window ? window : wrap(parent)) });
  const own = window.postMessage.bind(window);
  window.postMessage = (message, targetOrigin, transfer) => { posts.push({ targetOrigin, type: message && message.type, self: true }); return own(message, targetOrigin, transfer); };
  // The page's message listeners (the loader adds one while a widget is mounted).
  const listeners = (window.__messageListeners = new Set());
  const add = window.addEventListener, remove = window.removeEventListener;
  window.addEventListener = function (type, fn, opts) { if (type === 'message') listeners.add(fn); return add.call(this, type, fn, opts); };
  window.removeEventListener = function (type, fn, opts) { if (type === 'message') listeners.delete(fn); return remove.call(this, type, fn, opts); };
})();`;

/** The stub frame's script: the iframe side of the protocol, like the real frame, driven by the test. */
const STUB_FRAME_JS = `(() => {
  const q = new URLSearchParams(location.search);
  const instanceId = q.get('instance'), parentOrigin = q.get('parent');
  const received = [];
  const post = (message) => window.parent.postMessage(message, parentOrigin);
  window.addEventListener('message', (e) => {
    if (e.origin !== parentOrigin || e.source !== window.parent) return;
    received.push(e.data);
  });
  window.stub = {
    instanceId, parentOrigin, received, pk: q.get('pk'),
    event: (name, payload) => post({ type: 'svc:' + name, instanceId, payload }),
    raw: (message) => post(message),
    resize: (height) => post({ type: 'svc:frame.resize', instanceId, height }),
    hello: () => post({ type: 'svc:frame.hello', instanceId, version: 'stub' }),
  };
  if (q.get('pk') !== 'pk_stub_silent') window.stub.hello();
})();`;

/** On the embed origin but not the mounted iframe: posts a well-formed event for the given instance at once. */
const IMPOSTOR_JS = `(() => {
  const q = new URLSearchParams(location.search);
  window.parent.postMessage({ type: 'svc:quote.selected', instanceId: q.get('instance'), payload: { planId: 'impostor', premiumCents: 1 } }, q.get('parent'));
})();`;

export interface StubWidget {
  /** The embed origin: /widget.js, /frame, /impostor.html. */
  widgetUrl: string;
  /** A host page origin the stub frame's frame-ancestors allows. */
  hostUrl: string;
  /** A host page origin it does not allow. */
  otherHostUrl: string;
  /** An unrelated origin (a foreign iframe on the host page). */
  foreignUrl: string;
  stop(): Promise<void>;
}

const html = (body: string, head = '') =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>stub</title>${head}</head><body>${body}</body></html>`;

/** Starts the stub widget, its host pages and the foreign origin, each on a port of {@link freePorts}. */
export async function startStubWidget(): Promise<StubWidget> {
  const ports = await freePorts(4);
  const url = (port: number | undefined) => `http://localhost:${port}`;
  const widgetUrl = url(ports[0]),
    hostUrl = url(ports[1]),
    otherHostUrl = url(ports[2]),
    foreignUrl = url(ports[3]);

  const widget = express();
  // CORS as the widget server sends it: a page may load the loader as a module script.
  widget.get('/widget.js', (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.sendFile(LOADER_BUILD);
  });
  // The same loader under a path that is not ours (a renamed copy): it must refuse to start.
  widget.get('/static/loader.js', (_req, res) => {
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.sendFile(LOADER_BUILD);
  });
  widget.get('/stub-frame.js', (_req, res) => res.type('js').send(STUB_FRAME_JS));
  widget.get('/impostor.js', (_req, res) => res.type('js').send(IMPOSTOR_JS));
  widget.get('/frame', (req, res) => {
    // A frame that never answers (network trouble): no load, no hello -> frame_timeout.
    if (req.query['pk'] === 'pk_stub_hang') return;
    res.setHeader('Content-Security-Policy', `default-src 'none'; script-src 'self'; frame-ancestors ${hostUrl}`);
    res.type('html').send(html('<p>stub frame</p>', '<script src="/stub-frame.js"></script>'));
  });
  widget.get('/impostor.html', (_req, res) => {
    res.setHeader('Content-Security-Policy', `default-src 'none'; script-src 'self'; frame-ancestors ${hostUrl}`);
    res.type('html').send(html('<p>impostor</p>', '<script src="/impostor.js"></script>'));
  });

  // The operator's page: its own strict CSP allows the widget origin for scripts and frames (our documented lines).
  const host = express();
  host.get('/', (_req, res) => {
    res.setHeader(
      'Content-Security-Policy',
      `default-src 'self'; script-src 'self' ${widgetUrl}; frame-src ${widgetUrl} ${foreignUrl}`,
    );
    res
      .type('html')
      .send(
        html(
          '<main><h1>Host</h1><div id="a"></div><div id="b"></div></main>',
          `<script src="${widgetUrl}/widget.js"></script>`,
        ),
      );
  });
  // An operator page whose own CSP forgot the widget origin in frame-src.
  host.get('/no-frame-src', (_req, res) => {
    res.setHeader('Content-Security-Policy', `default-src 'self'; script-src 'self' ${widgetUrl}; frame-src 'self'`);
    res
      .type('html')
      .send(html('<main><h1>Host</h1><div id="a"></div></main>', `<script src="${widgetUrl}/widget.js"></script>`));
  });
  // The loader as a module script (no document.currentScript) after a third party's look-alike `…/widgets/chat.js`.
  const thirdPartyFirst = (loaderSrc: string) =>
    html(
      '<main><h1>Host</h1><div id="a"></div></main>',
      `<script src="${foreignUrl}/widgets/chat.js"></script><script type="module" src="${loaderSrc}"></script>`,
    );
  host.get('/module-loader', (_req, res) => {
    res.setHeader(
      'Content-Security-Policy',
      `default-src 'self'; script-src 'self' ${widgetUrl} ${foreignUrl}; frame-src ${widgetUrl} ${foreignUrl}`,
    );
    res.type('html').send(thirdPartyFirst(`${widgetUrl}/widget.js`));
  });
  host.get('/module-loader-renamed', (_req, res) => {
    res.setHeader(
      'Content-Security-Policy',
      `default-src 'self'; script-src 'self' ${widgetUrl} ${foreignUrl}; frame-src ${widgetUrl} ${foreignUrl}`,
    );
    res.type('html').send(thirdPartyFirst(`${widgetUrl}/static/loader.js`));
  });
  const foreign = express();
  foreign.get('/widgets/chat.js', (_req, res) => res.type('js').send('window.chatWidgetLoaded = true;'));
  foreign.get('/foreign.js', (_req, res) => res.type('js').send(IMPOSTOR_JS));
  foreign.get('/foreign.html', (_req, res) =>
    res.type('html').send(html('<p>foreign</p>', '<script src="/foreign.js"></script>')),
  );

  const servers: Server[] = [];
  const listen = (app: express.Express, port: number) =>
    new Promise<void>((resolve, reject) => {
      const server = app.listen(port, '127.0.0.1', (err?: Error) => (err ? reject(err) : resolve()));
      servers.push(server);
    });
  await listen(widget, ports[0]!);
  await listen(host, ports[1]!);
  await listen(host, ports[2]!);
  await listen(foreign, ports[3]!);
  return {
    widgetUrl,
    hostUrl,
    otherHostUrl,
    foreignUrl,
    stop: async () => {
      for (const s of servers) s.closeAllConnections();
      await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
    },
  };
}
