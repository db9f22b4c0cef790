/**
 * The loader's entry (`/widget.js`, `/widget/<x.y.z>.js`): defines `window.SvcWidget` once. Evaluated where there is
 * no document (server-side rendering, a worker, a test runner) it does nothing; loaded twice, the first copy stays
 * (with its handlers), and a second copy of another version says so in the console. Loaded from any other URL (an
 * inline copy, a renamed file) it cannot tell the widget's origin: it says so in the console and defines nothing.
 */
import type { SvcWidgetApi } from '@expedition/contracts/widget-protocol';
import { createSvcWidget } from './loader';
import { LOADER_VERSION } from './version';

/** Our own paths only: the rolling `/widget.js` and the pinned `/widget/<x.y.z>.js`. */
const LOADER_PATH = /^\/widget(\/\d+\.\d+\.\d+)?\.js$/;

/** WIDGET_LOADER_ORIGIN at build time (rollup.config.mjs): the origin this build is served from, or none. */
declare const __SVC_LOADER_ORIGIN__: string | null;

/**
 * The origin the loader was served from: the iframe's origin, wherever this (pinned) file is deployed. This very
 * script when the browser says which it is (its path must be ours: an inline copy has none). Without
 * `document.currentScript` (a module script, a script in a shadow tree) only the origin baked into the build, never
 * one read off the page: any script could carry our path (`https://evil.example/widget.js`) and be sent the
 * traveler's details. Otherwise null: the loader refuses to start. docs/security.md, "Loader origin".
 */
function loaderOrigin(doc: Document): string | null {
  const current = doc.currentScript as HTMLScriptElement | null;
  if (!current) return __SVC_LOADER_ORIGIN__;
  const url = current.src && new URL(current.src);
  return url && LOADER_PATH.test(url.pathname) ? url.origin : null;
}

if (typeof document !== 'undefined') {
  const w = window as Window & { SvcWidget?: SvcWidgetApi };
  const existing = w.SvcWidget;
  if (existing) {
    if (existing.version !== LOADER_VERSION)
      console.warn(`SvcWidget: loader ${LOADER_VERSION} ignored, ${existing.version} is already loaded`);
  } else {
    const origin = loaderOrigin(document);
    if (origin) Object.defineProperty(w, 'SvcWidget', { value: createSvcWidget(w, origin), enumerable: true });
    else console.error('SvcWidget: not started: no …/widget.js script');
  }
}
