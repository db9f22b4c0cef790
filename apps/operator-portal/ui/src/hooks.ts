import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { errorMessage } from './api/client';
import { useSession } from './session';

export interface Resource<T> {
  data: T | undefined;
  error: string | null;
  loading: boolean;
  reload(): Promise<void>;
}

/** GET a path and keep the answer; `reload()` after a change. A null path waits (a dependency is not known yet). */
export function useResource<T>(path: string | null): Resource<T> {
  const { api } = useSession();
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(path !== null);
  const latest = useRef(0);
  const load = useCallback(async () => {
    if (path === null) return;
    const ticket = ++latest.current;
    setLoading(true);
    try {
      const answer = await api.get<T>(path);
      if (ticket !== latest.current) return;
      setData(answer);
      setError(null);
    } catch (err) {
      if (ticket !== latest.current) return;
      setError(errorMessage(err));
    } finally {
      if (ticket === latest.current) setLoading(false);
    }
  }, [api, path]);
  useEffect(() => {
    void load();
  }, [load]);
  return { data, error, loading, reload: load };
}

/** Sets document.title ("Page · Expedition portal") so tabs, history and screen readers name the page. */
export function useTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · Expedition operator portal`;
  }, [title]);
}

/** One page of a cursor-paged list: its items and the cursor of the next page (null: the last page). */
export interface CursorPage<T> {
  items: T[];
  nextCursor: string | null;
}

export interface PagedList<T> {
  items: T[] | null;
  cursor: string | null;
  error: string | null;
  loading: boolean;
  reload(): Promise<void>;
  more(): Promise<void>;
}

/**
 * A cursor-paged list: the first page whenever `deps` change (and on reload()), more() appends the next one.
 * `fetchPage(null)` asks for the first page, `fetchPage(cursor)` for the page after it.
 */
export function usePagedList<T>(
  fetchPage: (cursor: string | null) => Promise<CursorPage<T>>,
  deps: readonly unknown[],
): PagedList<T> {
  const [items, setItems] = useState<T[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  async function load(reset: boolean) {
    setLoading(true);
    try {
      const page = await fetchPage(!reset && cursor ? cursor : null);
      setItems((prev) => (reset || !prev ? page.items : [...prev, ...page.items]));
      setCursor(page.nextCursor);
      setError(null);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setLoading(false);
    }
  }
  useEffect(() => {
    void load(true);
  }, deps);
  return { items, cursor, error, loading, reload: () => load(true), more: () => load(false) };
}
