/**
 * The loader's entry (`/widget.js`, `/widget/<x.y.z>.js`): defines `window.SvcWidget` once. Evaluated where there is
 * no window (server-side rendering, a test runner) it does nothing; loaded twice, the first copy stays (with its
 * handlers), and a second copy of another version says so in the console.
 */
import type { SvcWidgetApi } from '@expedition/contracts/widget-protocol';
import { createSvcWidget } from './loader';
import { LOADER_VERSION } from './version';

/** The origin the loader was served from: the iframe's origin, wherever this (pinned) file is deployed. */
function loaderOrigin(doc: Document): string {
  const script = (doc.currentScript || doc.querySelector('script[src*="/widget"]')) as HTMLScriptElement | null;
  return new URL(script?.src || doc.baseURI).origin;
}

if (typeof window !== 'undefined' && typeof document !== 'undefined') {
  const w = window as Window & { SvcWidget?: SvcWidgetApi };
  const existing = w.SvcWidget;
  if (existing) {
    if (existing.version !== LOADER_VERSION) console.warn(`SvcWidget: loader ${LOADER_VERSION} ignored, ${existing.version} is already on this page`);
  } else {
    Object.defineProperty(w, 'SvcWidget', { value: createSvcWidget(w, loaderOrigin(document)), enumerable: true });
  }
}
