import express from 'express';
import pino from 'pino';
import request from 'supertest';
import { createGuards } from '../src/http/guards';
import { portalErrorHandler } from '../src/http/errors';
import { getOperatorId, getPrincipal, setPrincipal, type PortalPrincipal } from '../src/http/principal';
import { API, createPortalHarness, providerAdmin, signUp, addMember, type PortalHarness } from './harness';

function appAs(principal: PortalPrincipal | undefined) {
  const app = express();
  const guards = createGuards();
  app.use((req, _res, next) => {
    if (principal) setPrincipal(req, principal);
    next();
  });
  app.get('/user', guards.requireUser, (req, res) => void res.json(getPrincipal(req)));
  app.get('/operator', guards.requireOperatorUser, (req, res) => void res.json({ operatorId: getOperatorId(req) }));
  app.get('/owner', guards.requireOwner, (_req, res) => void res.json({ ok: true }));
  app.get('/admin', guards.requireProviderAdmin, (_req, res) => void res.json({ ok: true }));
  app.get('/unguarded', (req, res) => void res.json(getPrincipal(req)));
  app.use(portalErrorHandler(pino({ level: 'silent' })));
  return app;
}

const principal = (role: PortalPrincipal['role']): PortalPrincipal => ({
  userId: 'u1',
  email: 'u@example.com',
  role,
  operatorId: role === 'provider_admin' ? null : 'op1',
  sessionId: 's1',
});

describe('guards', () => {
  it.each([
    // route, anonymous, member, owner, provider_admin
    ['/user', 401, 200, 200, 200],
    ['/operator', 401, 200, 200, 403],
    ['/owner', 401, 403, 200, 403],
    ['/admin', 401, 403, 403, 200],
    ['/unguarded', 401, 200, 200, 200],
  ])('%s: anonymous %i, member %i, owner %i, provider admin %i', async (route, anon, member, owner, admin) => {
    expect((await request(appAs(undefined)).get(route)).status).toBe(anon);
    expect((await request(appAs(principal('member'))).get(route)).status).toBe(member);
    expect((await request(appAs(principal('owner'))).get(route)).status).toBe(owner);
    expect((await request(appAs(principal('provider_admin'))).get(route)).status).toBe(admin);
  });

  it('401 is { code: unauthorized }, 403 is { code: forbidden }', async () => {
    expect((await request(appAs(undefined)).get('/owner')).body.code).toBe('unauthorized');
    expect((await request(appAs(principal('member'))).get('/owner')).body.code).toBe('forbidden');
  });
});

describe('the portal app: roles across the API', () => {
  let h: PortalHarness;
  beforeAll(async () => {
    h = await createPortalHarness();
  });
  afterAll(() => h.close());

  it('an operator user (owner or member) asking for /admin gets 403; no session gets 401', async () => {
    const owner = await signUp(h);
    const member = await addMember(h, owner.client, 'member');
    for (const client of [owner.client, member.client]) {
      const res = await client.get(`${API}/admin/operators`);
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('forbidden');
    }
    const anon = await request(h.app).get(`${API}/admin/operators`);
    expect(anon.status).toBe(401);
  });

  it('a provider admin reaches /admin and has no operator session data', async () => {
    const admin = await providerAdmin(h);
    const session = await admin.client.get(`${API}/auth/session`);
    expect(session.body.user).toMatchObject({ role: 'provider_admin', operatorId: null });
    expect(session.body.operator).toBeNull();
    expect((await admin.client.get(`${API}/admin/operators`)).status).toBe(200);
  });
});
