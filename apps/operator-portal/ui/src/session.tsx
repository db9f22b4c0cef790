import type { ComponentChildren } from 'preact';
import { createContext } from 'preact';
import { useCallback, useContext, useEffect, useMemo, useState } from 'preact/hooks';
import { createApiClient, type ApiClient } from './api/client';
import type { SessionResponse, SessionStatusResponse } from './api/types';
import { navigate } from './router';

export type SessionState =
  { status: 'loading' } | { status: 'anonymous' } | { status: 'ready'; session: SessionResponse };

interface SessionApi {
  api: ApiClient;
  state: SessionState;
  /** Re-reads the session, GET /auth/status (after verify-email, a role change…). */
  refresh(): Promise<void>;
  /** After log-in / sign-up / invite acceptance: the answer carries user and csrfToken. */
  signedIn(answer: Partial<SessionResponse> & { csrfToken: string }): Promise<void>;
  logOut(everywhere?: boolean): Promise<void>;
}

const SessionContext = createContext<SessionApi | null>(null);

/** The public pages never bounce to the log-in page on 401. */
export const PUBLIC_PATHS = [
  '/login',
  '/signup',
  '/forgot-password',
  '/reset-password',
  '/verify-email',
  '/accept-invite',
  '/sign-in-link',
];
export const isPublicPath = (pathname: string) => PUBLIC_PATHS.includes(pathname.replace(/\/+$/, '') || '/');

export function loginPathFor(pathname: string, search: string): string {
  const here = pathname + search;
  return here === '/' || isPublicPath(pathname) ? '/login' : `/login?next=${encodeURIComponent(here)}`;
}

export function SessionProvider({ children }: { children: ComponentChildren }) {
  const [state, setState] = useState<SessionState>({ status: 'loading' });
  const api = useMemo(
    () =>
      createApiClient({
        onUnauthorized: () => {
          setState({ status: 'anonymous' });
          if (!isPublicPath(window.location.pathname))
            navigate(loginPathFor(window.location.pathname, window.location.search), { replace: true });
        },
      }),
    [],
  );

  // GET /auth/status answers 200 with or without a session: a visitor who is not logged in sees no 401 in the console.
  const refresh = useCallback(async () => {
    try {
      const status = await api.get<SessionStatusResponse>('/auth/status');
      if (!status.authenticated) return setState({ status: 'anonymous' });
      api.setCsrfToken(status.session.csrfToken);
      setState({ status: 'ready', session: status.session });
    } catch {
      setState((s) => (s.status === 'loading' ? { status: 'anonymous' } : s));
    }
  }, [api]);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  const signedIn = useCallback(
    async (answer: Partial<SessionResponse> & { csrfToken: string }) => {
      api.setCsrfToken(answer.csrfToken);
      await refresh();
    },
    [api, refresh],
  );

  const logOut = useCallback(
    async (everywhere = false) => {
      try {
        await api.post(everywhere ? '/auth/logout-all' : '/auth/logout', undefined, { quiet401: true });
      } finally {
        api.setCsrfToken(null);
        setState({ status: 'anonymous' });
        navigate('/login', { replace: true });
      }
    },
    [api],
  );

  const value = useMemo<SessionApi>(
    () => ({ api, state, refresh, signedIn, logOut }),
    [api, state, refresh, signedIn, logOut],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionApi {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession() needs <SessionProvider>');
  return value;
}

/** The signed-in session (pages behind the guard only). */
export function useSignedIn(): SessionResponse {
  const { state } = useSession();
  if (state.status !== 'ready') throw new Error('useSignedIn() outside the signed-in area');
  return state.session;
}
