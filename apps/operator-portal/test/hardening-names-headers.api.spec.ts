import request from 'supertest';
import { API, GOOD_PASSWORD, h, PortalClient, providerAdmin, signUp, uniqueEmail, usePortalHarness } from './harness';

/** Names that deceive and the headers of every answer (docs/security.md, "Hardening, round two": items 7 and 8). */
usePortalHarness();

describe('names a person reads refuse bidi controls and invisible characters', () => {
  it.each([
    ['a right-to-left override', 'Polar\u202Esnoziroh'],
    ['a zero-width space', 'Polar\u200BHorizons'],
    ['a byte-order mark inside', 'Polar\uFEFFHorizons'],
    ['a left-to-right isolate', '\u2066Polar Horizons\u2069'],
    ['an Arabic letter mark', 'Polar\u061C Horizons'],
  ])('an operator name with %s → 400 naming the code point; no operator, no user', async (_what, operatorName) => {
    const email = uniqueEmail('bidi');
    const res = await new PortalClient(h.app).post(`${API}/auth/signup`, {
      email,
      password: GOOD_PASSWORD,
      operatorName,
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_request');
    expect(res.body.error).toMatch(/operatorName contains U\+[0-9A-F]{4} \((a bidi control|an? invisible character)\)/);
    expect(await h.prisma.operatorUser.count({ where: { email } })).toBe(0);
  });

  it("a team member's name with a zero-width joiner or an override → 400; the invitation still works", async () => {
    const { client } = await signUp(h);
    const email = uniqueEmail('member');
    await client.post(`${API}/team/invites`, { email, role: 'member' });
    const token = h.mailer.lastToken(email, 'accept-invite');
    for (const name of ['Ana\u200DLima', 'Ana \u202Eamil']) {
      const refused = await new PortalClient(h.app).post(`${API}/auth/invites/accept`, {
        token,
        password: GOOD_PASSWORD,
        name,
      });
      expect(refused.status).toBe(400);
      expect(refused.body.error).toMatch(/name contains U\+/);
    }
    const accepted = await new PortalClient(h.app).post(`${API}/auth/invites/accept`, {
      token,
      password: GOOD_PASSWORD,
      name: 'Ana Lima',
    });
    expect(accepted.status).toBe(201);
    expect(accepted.body.user.name).toBe('Ana Lima');
  });
});

describe('the provider sees look-alike operator names before enabling live embedding', () => {
  it('the operator detail and the enabling answer list every other operator whose name reads alike', async () => {
    const original = await signUp(h, { operatorName: 'Glacier Bay Expeditions (demo)' });
    const copy = await signUp(h, { operatorName: 'GLACIER-BAY Expeditions demo' });
    const cyrillic = await signUp(h, { operatorName: 'Glасiеr Bаy Exреditions' });
    await signUp(h, { operatorName: 'Glacier Bay' });
    const admin = await providerAdmin(h);

    const detail = await admin.client.get(`${API}/admin/operators/${copy.operator.id}`);
    expect(detail.status).toBe(200);
    expect(detail.body.lookAlikes.map((o: { id: string }) => o.id).sort()).toEqual(
      [original.operator.id, cyrillic.operator.id].sort(),
    );
    expect(detail.body.lookAlikes[0]).toEqual({
      id: expect.any(String),
      name: expect.any(String),
      status: expect.any(String),
      embeddingEnabled: false,
    });

    const enabled = await admin.client.patch(`${API}/admin/operators/${copy.operator.id}`, { embeddingEnabled: true });
    expect(enabled.status).toBe(200);
    expect(enabled.body.lookAlikes).toHaveLength(2);
  });
});

describe('X-Content-Type-Options on every portal answer', () => {
  it.each([
    ['GET', `${API}/openapi.json`, 200],
    ['GET', `${API}/auth/session`, 401],
    ['GET', `${API}/no-such-route`, 404],
    ['GET', '/api/elsewhere', 404],
    ['GET', '/', 200],
    ['GET', '/healthz', 200],
    ['POST', `${API}/auth/login`, 400],
  ] as const)('%s %s (%i) carries nosniff', async (method, path, status) => {
    const res = await (method === 'GET'
      ? request(h.app).get(path)
      : request(h.app).post(path).set('Content-Type', 'application/json').send('{'));
    expect(res.status).toBe(status);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });
});
