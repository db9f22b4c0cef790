import request from 'supertest';
import {
  API,
  createPortalHarness,
  GOOD_PASSWORD,
  h,
  PORTAL_URL,
  PortalClient,
  signUp,
  usePortalHarness,
  WIDGET_URL,
} from './harness';

usePortalHarness();

describe('CSRF', () => {
  it('refuses a state-changing request without Origin or Referer (403 csrf_failed)', async () => {
    const res = await request(h.app).post(`${API}/auth/login`).send({ email: 'a@b.co', password: 'x' });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('csrf_failed');
  });

  it('refuses a foreign Origin, even before log-in (log-in CSRF)', async () => {
    const res = await request(h.app).post(`${API}/auth/signup`).set('Origin', 'https://evil.example').send({});
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('csrf_failed');
  });

  it('refuses a look-alike origin (same host, other port or scheme)', async () => {
    for (const origin of ['http://portal.test:3005', 'https://portal.test:3004', 'http://portal.test']) {
      const res = await request(h.app).post(`${API}/auth/logout`).set('Origin', origin);
      expect(res.status).toBe(403);
    }
  });

  it('accepts a same-origin Referer when Origin is absent', async () => {
    const res = await request(h.app).post(`${API}/auth/logout`).set('Referer', `${PORTAL_URL}/login`);
    expect(res.status).toBe(204);
    const foreign = await request(h.app).post(`${API}/auth/logout`).set('Referer', 'https://evil.example/x');
    expect(foreign.status).toBe(403);
  });

  it('with a session: a missing or wrong X-CSRF-Token is 403, the right one passes', async () => {
    const { client } = await signUp(h);
    const token = client.csrfToken!;
    client.csrfToken = undefined;
    const missing = await client.post(`${API}/auth/logout-all`);
    expect(missing.status).toBe(403);
    expect(missing.body.code).toBe('csrf_failed');
    client.csrfToken = token.slice(0, -2) + (token.endsWith('AA') ? 'BB' : 'AA');
    const wrong = await client.post(`${API}/auth/logout-all`);
    expect(wrong.status).toBe(403);
    client.csrfToken = token;
    // Still logged in: the refused requests changed nothing.
    expect((await client.get(`${API}/auth/session`)).status).toBe(200);
    expect((await client.post(`${API}/auth/logout-all`)).status).toBe(204);
  });

  it('another session’s CSRF token does not pass', async () => {
    const a = await signUp(h);
    const b = await signUp(h);
    a.client.csrfToken = b.client.csrfToken;
    expect((await a.client.post(`${API}/auth/logout`)).status).toBe(403);
  });

  it('GET requests need neither', async () => {
    const { client } = await signUp(h);
    client.csrfToken = undefined;
    expect((await client.get(`${API}/auth/session`)).status).toBe(200);
  });

  it('PUT, PATCH and DELETE are checked too', async () => {
    for (const method of ['put', 'patch', 'delete'] as const) {
      const res = await request(h.app)[method](`${API}/team/members/x`).set('Origin', 'https://evil.example');
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('csrf_failed');
    }
  });
});

describe('security headers', () => {
  it('every API response carries the CSP and friends; no-store; no X-Powered-By', async () => {
    const res = await request(h.app).get(`${API}/auth/session`);
    expect(res.headers['content-security-policy']).toBe(
      "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; " +
        `frame-src ${WIDGET_URL}; object-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'`,
    );
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('same-origin');
    expect(res.headers['permissions-policy']).toContain('camera=()');
    expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-powered-by']).toBeUndefined();
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });

  it('behind https: HSTS and Secure cookies', async () => {
    const https = await createPortalHarness({
      db: h.db,
      deps: {
        urls: {
          portal: 'https://portal.example',
          widget: 'https://widget.example',
          embed: 'https://embed.example',
          quoteApi: 'https://api.example',
        },
      },
    });
    const res = await request(https.app)
      .post(`${API}/auth/signup`)
      .set('Origin', 'https://portal.example')
      .send({ email: `secure-${process.pid}@example.com`, password: GOOD_PASSWORD, operatorName: 'Secure Co' });
    expect(res.status).toBe(201);
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    const cookie = (res.headers['set-cookie'] as unknown as string[]).find((c) =>
      c.startsWith('__Host-svc_portal_session='),
    )!;
    expect(cookie).toMatch(/; Secure/);
    expect(cookie).toMatch(/HttpOnly/);
  });

  it('unknown API paths are JSON 404 not_found', async () => {
    const res = await request(h.app).get(`${API}/nope`);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
    const other = await request(h.app).get('/api/other');
    expect(other.status).toBe(404);
    expect(other.body.code).toBe('not_found');
  });

  it('/healthz and /readyz', async () => {
    expect((await request(h.app).get('/healthz')).body).toEqual({ status: 'ok' });
    expect((await request(h.app).get('/readyz')).body).toEqual({ status: 'ready' });
  });

  it('never echoes a password or a token in an error body', async () => {
    const client = new PortalClient(h.app);
    const res = await client.post(`${API}/auth/signup`, {
      email: 'x@y.co',
      password: 'password1234',
      operatorName: 'Z',
    });
    expect(JSON.stringify(res.body)).not.toContain('password1234');
    const token = await client.post(`${API}/auth/verify-email`, { token: 'ev_secret-looking-token' });
    expect(JSON.stringify(token.body)).not.toContain('ev_secret-looking-token');
  });
});
