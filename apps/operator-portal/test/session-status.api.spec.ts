import request from 'supertest';
import { SessionStatusResponseSchema } from '@expedition/contracts';
import { API, h, signUp, usePortalHarness } from './harness';

usePortalHarness();

describe('GET /auth/status', () => {
  it('answers 200 { authenticated: false } without a session (no 401 on a logged-out page load), never cached', async () => {
    const res = await request(h.app).get(`${API}/auth/status`);
    expect(res.status).toBe(200);
    expect(SessionStatusResponseSchema.parse(res.body)).toEqual({ authenticated: false });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('answers the session GET /auth/session gives while one is open, and { authenticated: false } after log-out', async () => {
    const { client } = await signUp(h, { operatorName: 'Status Trips' });
    const session = await client.get(`${API}/auth/session`);
    const status = await client.get(`${API}/auth/status`);
    expect(status.status).toBe(200);
    expect(SessionStatusResponseSchema.parse(status.body)).toEqual({ authenticated: true, session: session.body });

    expect((await client.post(`${API}/auth/logout`)).status).toBe(204);
    expect((await client.get(`${API}/auth/status`)).body).toEqual({ authenticated: false });
  });

  it('treats an unknown session cookie as no session', async () => {
    const res = await request(h.app).get(`${API}/auth/status`).set('Cookie', 'svc_portal_session=ps_unknown');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ authenticated: false });
  });

  it('is in the OpenAPI document, public', async () => {
    const doc = (await request(h.app).get(`${API}/openapi.json`)).body;
    expect(doc.paths[`${API}/auth/status`].get.responses).toHaveProperty('200');
    expect(doc.paths[`${API}/auth/status`].get.security).toEqual([]);
  });
});
