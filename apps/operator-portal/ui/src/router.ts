/**
 * History-API routing in a few lines: the server answers every non-API path with the shell, so a reload or a shared
 * link lands on the right page. `matchPath` is pure (tested); the hook re-renders on navigate() and back/forward.
 */
import { useEffect, useState } from 'preact/hooks';

export type Params = Record<string, string>;

/** `/webhooks/:id` against `/webhooks/abc` → { id: 'abc' }; null when it does not match. Trailing slashes are ignored. */
export function matchPath(pattern: string, pathname: string): Params | null {
  const want = trimSlashes(pattern).split('/');
  const have = trimSlashes(pathname).split('/');
  if (want.length !== have.length) return null;
  const params: Params = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i] ?? '';
    const h = have[i] ?? '';
    if (w.startsWith(':')) {
      if (!h) return null;
      try {
        params[w.slice(1)] = decodeURIComponent(h);
      } catch {
        return null;
      }
    } else if (w !== h) return null;
  }
  return params;
}

const trimSlashes = (path: string) => path.replace(/^\/+|\/+$/g, '');

/** Only same-app paths are followed after log-in (`?next=`): never another origin, never `//evil.example`. */
export function safeNext(next: string | null | undefined, fallback = '/'): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return fallback;
  return next;
}

export interface Location {
  pathname: string;
  search: URLSearchParams;
}

const EVENT = 'svc:navigate';

function current(): Location {
  return { pathname: window.location.pathname, search: new URLSearchParams(window.location.search) };
}

export function navigate(to: string, { replace = false }: { replace?: boolean } = {}): void {
  if (replace) window.history.replaceState(null, '', to);
  else window.history.pushState(null, '', to);
  window.dispatchEvent(new Event(EVENT));
  if (!replace) window.scrollTo(0, 0);
}

export function useLocation(): Location {
  const [location, setLocation] = useState(current);
  useEffect(() => {
    const update = () => setLocation(current());
    window.addEventListener('popstate', update);
    window.addEventListener(EVENT, update);
    return () => {
      window.removeEventListener('popstate', update);
      window.removeEventListener(EVENT, update);
    };
  }, []);
  return location;
}

/** Left clicks on in-app links navigate without a reload; modified clicks (new tab…) keep the browser's behaviour. */
export function onLinkClick(event: MouseEvent): void {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey)
    return;
  const anchor = (event.target as Element | null)?.closest?.('a');
  // data-reload: a page the server renders itself (the dev mail outbox), not a route of this app.
  if (!anchor || anchor.target || anchor.hasAttribute('download') || anchor.hasAttribute('data-reload')) return;
  const url = new URL(anchor.href, window.location.href);
  if (url.origin !== window.location.origin || url.pathname.startsWith('/api/')) return;
  event.preventDefault();
  navigate(url.pathname + url.search + url.hash);
}
