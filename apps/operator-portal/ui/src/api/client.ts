/**
 * The portal's one way to talk to its API (/api/portal/v1): same-origin cookies, JSON both ways, the CSRF token on
 * every state-changing call, and one place that turns a 401 into "go to the log-in page".
 *
 * CSRF: the token comes from GET /auth/session (and from the log-in, sign-up and invite answers). It is kept in
 * memory only. A state-changing call without a token asks the session first; a 403 `csrf_failed` (the session was
 * renewed in another tab) refreshes the token and retries that call once.
 */
import { PORTAL_CSRF_HEADER } from '@expedition/contracts/rules';

export const API_BASE = '/api/portal/v1';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions {
  /** Do not call onUnauthorized on 401 (the session probe and the log-in form handle 401 themselves). */
  quiet401?: boolean;
  signal?: AbortSignal;
}

export interface ApiClientOptions {
  base?: string;
  fetch?: typeof fetch;
  /** Called once per 401 (the session ended): the app shows the log-in page. */
  onUnauthorized?: () => void;
}

/** Paths that work without a session: no need to fetch a CSRF token before them. */
const ANONYMOUS = new Set([
  '/auth/login',
  '/auth/signup',
  '/auth/password-reset',
  '/auth/password-reset/confirm',
  '/auth/verify-email',
  '/auth/invites/accept',
  '/auth/login-link',
]);

export const isStateChanging = (method: Method): boolean => method !== 'GET';

export interface ApiClient {
  request<T>(method: Method, path: string, body?: unknown, options?: RequestOptions): Promise<T>;
  get<T>(path: string, options?: RequestOptions): Promise<T>;
  post<T>(path: string, body?: unknown, options?: RequestOptions): Promise<T>;
  put<T>(path: string, body?: unknown, options?: RequestOptions): Promise<T>;
  patch<T>(path: string, body?: unknown, options?: RequestOptions): Promise<T>;
  del<T>(path: string, options?: RequestOptions): Promise<T>;
  setCsrfToken(token: string | null): void;
  csrfToken(): string | null;
}

async function readError(response: Response): Promise<ApiError> {
  let body: { error?: unknown; code?: unknown; details?: unknown } = {};
  try {
    body = (await response.json()) as typeof body;
  } catch {
    // not JSON (a proxy's page): fall back to the status text
  }
  const message = typeof body.error === 'string' && body.error ? body.error : defaultMessage(response.status);
  const code = typeof body.code === 'string' ? body.code : `http_${response.status}`;
  return new ApiError(response.status, code, message, body.details);
}

export function defaultMessage(status: number): string {
  if (status === 401) return 'Your session has ended. Please log in again.';
  if (status === 403) return 'You do not have permission to do that.';
  if (status === 404) return 'Not found.';
  if (status === 429) return 'Too many attempts. Please wait a moment and try again.';
  if (status >= 500) return 'Something went wrong on our side. Please try again.';
  return 'The request could not be completed.';
}

export function createApiClient(options: ApiClientOptions = {}): ApiClient {
  const base = options.base ?? API_BASE;
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init));
  let csrf: string | null = null;

  async function refreshCsrf(): Promise<void> {
    const response = await doFetch(`${base}/auth/session`, {
      method: 'GET',
      credentials: 'same-origin',
      headers: { Accept: 'application/json' },
    });
    if (!response.ok) return;
    const body = (await response.json()) as { csrfToken?: string };
    if (typeof body.csrfToken === 'string') csrf = body.csrfToken;
  }

  async function send(method: Method, path: string, body: unknown, signal?: AbortSignal): Promise<Response> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (isStateChanging(method) && csrf) headers[PORTAL_CSRF_HEADER] = csrf;
    return doFetch(`${base}${path}`, {
      method,
      credentials: 'same-origin',
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
  }

  async function request<T>(method: Method, path: string, body?: unknown, opts: RequestOptions = {}): Promise<T> {
    const pathOnly = path.split('?')[0] ?? path;
    if (isStateChanging(method) && !csrf && !ANONYMOUS.has(pathOnly)) await refreshCsrf();
    let response = await send(method, path, body, opts.signal);
    if (response.status === 403 && isStateChanging(method)) {
      const error = await readError(response.clone());
      if (error.code === 'csrf_failed') {
        await refreshCsrf();
        response = await send(method, path, body, opts.signal);
      }
    }
    if (response.status === 401 && !opts.quiet401) {
      csrf = null;
      options.onUnauthorized?.();
    }
    if (!response.ok) throw await readError(response);
    const answer = await readJson(response);
    const token = (answer as { csrfToken?: unknown } | undefined)?.csrfToken;
    if (typeof token === 'string') csrf = token;
    return answer as T;
  }

  return {
    request,
    get: (path, o) => request('GET', path, undefined, o),
    post: (path, body, o) => request('POST', path, body, o),
    put: (path, body, o) => request('PUT', path, body, o),
    patch: (path, body, o) => request('PATCH', path, body, o),
    del: (path, o) => request('DELETE', path, undefined, o),
    setCsrfToken(token) {
      csrf = token;
    },
    csrfToken: () => csrf,
  };
}

async function readJson(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A message fit for a person from anything a call threw. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof DOMException && error.name === 'AbortError') return 'Cancelled.';
  if (error instanceof TypeError) return 'Cannot reach the portal. Check your connection and try again.';
  return 'Something went wrong. Please try again.';
}
