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
