import { ApiError, createApiClient, errorMessage } from './client';

interface Call {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
  credentials?: string;
}

/** A scripted fetch: answers in order, records every request. */
function fakeFetch(answers: Array<{ status: number; body?: unknown }>) {
  const calls: Call[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    calls.push({
      url: String(input),
      method: init?.method ?? 'GET',
      headers: { ...(init?.headers as Record<string, string>) },
      body: init?.body as string | undefined,
      credentials: init?.credentials,
    });
    const next = answers.shift();
    if (!next) throw new Error(`unexpected request ${init?.method} ${String(input)}`);
    const text = next.body === undefined ? '' : JSON.stringify(next.body);
    return new Response(next.status === 204 ? null : text, {
      status: next.status,
      headers: { 'Content-Type': 'application/json' },
    });
  };
  return { fetch: fetch as typeof globalThis.fetch, calls };
}

describe('portal API client', () => {
  it('sends GETs same-origin as JSON without a CSRF header', async () => {
    const { fetch, calls } = fakeFetch([{ status: 200, body: { keys: [] } }]);
    const api = createApiClient({ fetch });
    await expect(api.get('/operator/keys')).resolves.toEqual({ keys: [] });
    expect(calls[0]).toMatchObject({ url: '/api/portal/v1/operator/keys', method: 'GET', credentials: 'same-origin' });
    expect(calls[0]!.headers['X-CSRF-Token']).toBeUndefined();
  });

  it('fetches the CSRF token from GET /auth/session before the first state-changing call and sends it', async () => {
    const { fetch, calls } = fakeFetch([
      { status: 200, body: { user: {}, operator: null, csrfToken: 'tok-1' } },
      { status: 201, body: { key: { id: 'k' } } },
      { status: 204 },
    ]);
    const api = createApiClient({ fetch });
    await api.post('/operator/keys', { mode: 'test' });
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      'GET /api/portal/v1/auth/session',
      'POST /api/portal/v1/operator/keys',
    ]);
    expect(calls[1]!.headers['X-CSRF-Token']).toBe('tok-1');
    expect(calls[1]!.headers['Content-Type']).toBe('application/json');
    expect(JSON.parse(calls[1]!.body!)).toEqual({ mode: 'test' });
    await api.del('/operator/origins?origin=https%3A%2F%2Fa.example');
    expect(calls[2]).toMatchObject({ method: 'DELETE' });
    expect(calls[2]!.headers['X-CSRF-Token']).toBe('tok-1');
    expect(calls).toHaveLength(3);
  });

  it('takes the token from a log-in answer and does not ask the session before anonymous routes', async () => {
    const { fetch, calls } = fakeFetch([
      { status: 200, body: { user: { id: 'u' }, csrfToken: 'from-login' } },
      { status: 200, body: { newKey: {}, oldKey: {} } },
    ]);
    const api = createApiClient({ fetch });
    await api.post('/auth/login', { email: 'a@b.example', password: 'x' });
    expect(calls[0]!.url).toBe('/api/portal/v1/auth/login');
    expect(api.csrfToken()).toBe('from-login');
    await api.post('/operator/keys/k1/rotate', { grace: '24h' });
    expect(calls[1]!.headers['X-CSRF-Token']).toBe('from-login');
  });

  it('refreshes the token and retries once after 403 csrf_failed', async () => {
    const { fetch, calls } = fakeFetch([
      { status: 403, body: { error: 'CSRF check failed', code: 'csrf_failed' } },
      { status: 200, body: { user: {}, csrfToken: 'fresh' } },
      { status: 200, body: { ok: true } },
    ]);
    const api = createApiClient({ fetch });
    api.setCsrfToken('stale');
    await expect(api.post('/operator/keys/k/revoke')).resolves.toEqual({ ok: true });
    expect(calls.map((c) => c.headers['X-CSRF-Token'])).toEqual(['stale', undefined, 'fresh']);
  });

  it('does not retry a 403 that is not a CSRF failure', async () => {
    const { fetch, calls } = fakeFetch([{ status: 403, body: { error: 'Owners only', code: 'forbidden' } }]);
    const api = createApiClient({ fetch });
    api.setCsrfToken('t');
    await expect(api.post('/operator/secret-keys', { mode: 'test' })).rejects.toMatchObject({
      status: 403,
      code: 'forbidden',
      message: 'Owners only',
    });
    expect(calls).toHaveLength(1);
  });

  it('calls onUnauthorized on 401 and forgets the token, unless the call is quiet', async () => {
    const { fetch } = fakeFetch([
      { status: 401, body: { error: 'Log in first', code: 'unauthorized' } },
      { status: 401, body: { error: 'bad', code: 'invalid_credentials' } },
    ]);
    const onUnauthorized = jest.fn();
    const api = createApiClient({ fetch, onUnauthorized });
    api.setCsrfToken('t');
    await expect(api.get('/operator')).rejects.toBeInstanceOf(ApiError);
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    expect(api.csrfToken()).toBeNull();
    await expect(api.post('/auth/login', {}, { quiet401: true })).rejects.toMatchObject({
      code: 'invalid_credentials',
    });
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('turns a non-JSON error into a readable ApiError and keeps 400 details', async () => {
    const { fetch } = fakeFetch([
      {
        status: 400,
        body: {
          error: 'Invalid request',
          code: 'invalid_request',
          details: [{ path: 'email', message: 'must be an e-mail address' }],
        },
      },
    ]);
    const api = createApiClient({ fetch });
    const error = await api.post('/auth/signup', {}).catch((e: unknown) => e);
    expect(error).toMatchObject({
      status: 400,
      code: 'invalid_request',
      details: [{ path: 'email', message: 'must be an e-mail address' }],
    });
    const html = createApiClient({
      fetch: (async () => new Response('<html>bad gateway</html>', { status: 502 })) as typeof globalThis.fetch,
    });
    await expect(html.get('/operator')).rejects.toMatchObject({
      status: 502,
      code: 'http_502',
      message: 'Something went wrong on our side. Please try again.',
    });
  });

  it('gives people a message for network failures', () => {
    expect(errorMessage(new TypeError('Failed to fetch'))).toMatch(/Cannot reach the portal/);
    expect(errorMessage(new ApiError(429, 'rate_limited', 'Too many attempts'))).toBe('Too many attempts');
  });
});
