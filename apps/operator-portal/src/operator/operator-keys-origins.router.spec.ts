import {
  AuditListSchema,
  OriginTestResponseSchema,
  PublishableKeyListSchema,
  RotateKeyResponseSchema,
  DAY_MS,
} from '@expedition/contracts';
import { createKeyResolver } from '@expedition/operators';
import { useRouterSuite } from './portal-test-harness';

// One world for the file: the origin tester uses the live key minted above it, the audit log lists these changes.
const suite = useRouterSuite();
const { as } = suite;
let { h, a, b } = suite;
beforeAll(() => ({ h, a, b } = suite));

describe('publishable keys', () => {
  it('lists the own keys only, with the gate verdict', async () => {
    const res = await as(a.member).get('/operator/keys');
    expect(res.status).toBe(200);
    const { keys } = PublishableKeyListSchema.parse(res.body);
    expect(keys.map((k) => k.id)).toEqual([a.key.id]);
    expect(keys[0]).toMatchObject({ mode: 'test', accepted: true, refusal: null });
  });

  it('creates a live key that the gate refuses until embedding is enabled, and says why', async () => {
    const res = await as(a.member).post('/operator/keys', { mode: 'live', label: 'www' });
    expect(res.status).toBe(201);
    expect(res.body.key).toMatchObject({
      mode: 'live',
      label: 'www',
      state: 'active',
      accepted: false,
      refusal: 'embedding_disabled',
    });
    expect(res.body.key.key).toMatch(/^pk_op_[0-9a-f]{48}$/);
  });

  it('400 for an invalid body', async () => {
    const res = await as(a.member).post('/operator/keys', { mode: 'sandbox' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_request');
    expect(res.body.details[0].path).toBe('mode');
  });

  it("404 for another operator's key on rotate and revoke, and nothing changes", async () => {
    for (const action of ['rotate', 'revoke']) {
      const res = await as(a.owner).post(`/operator/keys/${b.key.id}/${action}`, { grace: 'now' });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('not_found');
    }
    expect((await h.operators.listKeys(b.operator.id))[0]!.state).toBe('active');
  });

  it('rotates with a 24 h grace: the old key keeps passing the gate until then (key resolver), and it is audited', async () => {
    const key = (await as(a.member).post('/operator/keys', { mode: 'test', label: 'rotate-me' })).body.key;
    const res = await as(a.member).post(`/operator/keys/${key.id}/rotate`, { grace: '24h' });
    expect(res.status).toBe(200);
    const rotated = RotateKeyResponseSchema.parse(res.body);
    expect(rotated.oldKey).toMatchObject({ id: key.id, state: 'expiring', accepted: true });
    expect(new Date(rotated.oldKey.expiresAt!).getTime()).toBe(h.clock.now().getTime() + 24 * 3600_000);
    expect(rotated.newKey).toMatchObject({ state: 'active', label: 'rotate-me', mode: 'test' });

    const resolver = createKeyResolver(h.db.prisma, { ttlMs: 0, clock: h.clock });
    expect(await resolver.resolve(key.key)).not.toBeNull();
    h.clock.advance(24 * 3600_000 - 1000);
    expect(await resolver.resolve(key.key)).not.toBeNull();
    h.clock.advance(1000);
    expect(await resolver.resolve(key.key)).toBeNull();
    expect(await resolver.resolve(rotated.newKey.key)).not.toBeNull();

    const audit = await h.db.prisma.auditEntry.findFirstOrThrow({
      where: { action: 'publishable_key.rotated', targetId: key.id },
    });
    expect(audit).toMatchObject({
      actorUserId: a.member.principal.userId,
      actorEmail: a.member.principal.email,
      actorRole: 'member',
      operatorId: a.operator.id,
    });
    expect(audit.before).toMatchObject({ state: 'active' });
    expect(audit.after).toMatchObject({ state: 'expiring', newKeyId: rotated.newKey.id });
  });

  it('rotates to a chosen date; refuses a past date (400) and a second rotation of the same key (409)', async () => {
    const key = (await as(a.member).post('/operator/keys', { mode: 'test' })).body.key;
    const past = await as(a.member).post(`/operator/keys/${key.id}/rotate`, {
      expiresAt: new Date(h.clock.now().getTime() - 1000).toISOString(),
    });
    expect(past.status).toBe(400);
    const at = new Date(h.clock.now().getTime() + 3 * DAY_MS).toISOString();
    const ok = await as(a.member).post(`/operator/keys/${key.id}/rotate`, { expiresAt: at });
    expect(ok.status).toBe(200);
    expect(ok.body.oldKey.expiresAt).toBe(at);
    const again = await as(a.member).post(`/operator/keys/${key.id}/rotate`, { grace: 'now' });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('conflict');
  });

  it('revokes at once (200) and the resolver refuses the key', async () => {
    const key = (await as(a.member).post('/operator/keys', { mode: 'test' })).body.key;
    const res = await as(a.member).post(`/operator/keys/${key.id}/revoke`);
    expect(res.status).toBe(200);
    expect(res.body.key).toMatchObject({ state: 'revoked', accepted: false, refusal: 'revoked' });
    expect(await createKeyResolver(h.db.prisma, { ttlMs: 0, clock: h.clock }).resolve(key.key)).toBeNull();
  });
});

describe('secret keys', () => {
  it('the owner mints one (shown once, no-store), lists prefixes, revokes; B cannot revoke it (404)', async () => {
    const res = await as(a.owner).post('/operator/secret-keys', { mode: 'live' });
    expect(res.status).toBe(201);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body.secretKey).toMatch(/^sk_op_/);
    const list = await as(a.member).get('/operator/secret-keys');
    expect(list.status).toBe(200);
    expect(JSON.stringify(list.body)).not.toContain(res.body.secretKey);
    expect(list.body.secretKeys.map((k: { id: string }) => k.id)).toContain(res.body.key.id);

    const other = await as(b.owner).post(`/operator/secret-keys/${res.body.key.id}/revoke`);
    expect(other.status).toBe(404);
    const member = await as(a.member).post(`/operator/secret-keys/${res.body.key.id}/revoke`);
    expect(member.status).toBe(403);
    const revoked = await as(a.owner).post(`/operator/secret-keys/${res.body.key.id}/revoke`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.key.revokedAt).not.toBeNull();
  });
});

describe('allowed origins', () => {
  it('adds a normalized origin (201), again is 200 added:false; www. and the bare domain are separate', async () => {
    const res = await as(a.member).post('/operator/origins', { origin: 'HTTPS://Tours.Alpha.example:443/' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      added: true,
      origin: { origin: 'https://tours.alpha.example', loopback: false, appliesTo: ['test', 'live'] },
    });
    const again = await as(a.member).post('/operator/origins', { origin: 'https://tours.alpha.example' });
    expect(again.status).toBe(200);
    expect(again.body.added).toBe(false);
    await as(a.member).post('/operator/origins', { origin: 'https://www.tours.alpha.example' });
    const list = await as(a.member).get('/operator/origins');
    expect(list.body.origins.map((o: { origin: string }) => o.origin)).toEqual([
      'https://tours.alpha.example',
      'https://www.tours.alpha.example',
    ]);
  });

  it.each([
    ['https://alpha.example/shop', /no path/],
    ['https://*.alpha.example', /Wildcards/],
    ['alpha.example', /not a URL/],
    ['ftp://alpha.example', /http and https/],
    ['null', /opaque/],
  ])('refuses %s with origin_invalid and a clear reason', async (origin, reason) => {
    const res = await as(a.member).post('/operator/origins', { origin });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('origin_invalid');
    expect(res.body.error).toMatch(reason);
  });

  it('lists a loopback origin as test-only', async () => {
    const res = await as(a.member).post('/operator/origins', { origin: 'http://localhost:8080' });
    expect(res.status).toBe(201);
    expect(res.body.origin).toMatchObject({ loopback: true, appliesTo: ['test'] });
  });

  it("DELETE removes (204); another operator's origin or an unlisted one is 404", async () => {
    await as(b.member).post('/operator/origins', { origin: 'https://beta.example' });
    const cross = await as(a.member).delete('/operator/origins?origin=' + encodeURIComponent('https://beta.example'));
    expect(cross.status).toBe(404);
    expect(await h.operators.listAllowedOrigins(b.operator.id)).toContain('https://beta.example');
    const ok = await as(b.member).delete('/operator/origins?origin=' + encodeURIComponent('https://beta.example'));
    expect(ok.status).toBe(204);
    expect(await h.operators.listAllowedOrigins(b.operator.id)).not.toContain('https://beta.example');
    const missing = await as(b.member).delete('/operator/origins');
    expect(missing.status).toBe(400);
  });

  it('the tester takes a page address and tests the origin it is served from', async () => {
    await as(a.member).post('/operator/origins', { origin: 'http://localhost:35500' });
    const res = await as(a.member).post('/operator/origins/test', {
      origin: 'http://localhost:35500/trip.html?day=3#map',
    });
    expect(res.status).toBe(200);
    const body = OriginTestResponseSchema.parse(res.body);
    expect(body).toMatchObject({ normalized: 'http://localhost:35500', valid: true, problem: null, listed: true });
    expect(body.results.find((r) => r.keyId === a.key.id)).toMatchObject({ accepted: true, reason: 'accepted' });
    await as(a.member).delete(`/operator/origins?origin=${encodeURIComponent('http://localhost:35500')}`);
  });

  it('the tester answers per key: listed origin accepted for the test key; live key refused until embedding; loopback test only', async () => {
    const res = await as(a.member).post('/operator/origins/test', { origin: 'https://tours.alpha.example/' });
    expect(res.status).toBe(200);
    const body = OriginTestResponseSchema.parse(res.body);
    expect(body).toMatchObject({ normalized: 'https://tours.alpha.example', valid: true, listed: true });
    expect(body.results.find((r) => r.keyId === a.key.id)).toMatchObject({ accepted: true, reason: 'accepted' });
    expect(body.results.find((r) => r.mode === 'live')).toMatchObject({
      accepted: false,
      reason: 'embedding_disabled',
    });

    await h.operators.setEmbeddingEnabled(a.operator.id, true);
    const local = OriginTestResponseSchema.parse(
      (await as(a.member).post('/operator/origins/test', { origin: 'http://localhost:8080' })).body,
    );
    expect(local.results.find((r) => r.keyId === a.key.id)!.reason).toBe('accepted');
    expect(local.results.find((r) => r.mode === 'live' && r.reason !== 'key_revoked')!.reason).toBe(
      'loopback_test_only',
    );
    const unlisted = OriginTestResponseSchema.parse(
      (await as(a.member).post('/operator/origins/test', { origin: 'https://evil.example' })).body,
    );
    expect(unlisted.results.every((r) => !r.accepted)).toBe(true);
    const invalid = OriginTestResponseSchema.parse(
      (await as(a.member).post('/operator/origins/test', { origin: 'ftp://x.example/path' })).body,
    );
    expect(invalid).toMatchObject({ valid: false, normalized: null });
    expect(invalid.problem).toMatch(/http and https/);
    const withCredentials = OriginTestResponseSchema.parse(
      (await as(a.member).post('/operator/origins/test', { origin: 'https://u:p@x.example/' })).body,
    );
    expect(withCredentials).toMatchObject({ valid: false, normalized: null });
    // The gate applies the same rule: the live key's resolved origins leave the loopback entry out.
    const resolver = createKeyResolver(h.db.prisma, { ttlMs: 0, clock: h.clock });
    const liveKey = (await h.operators.listKeys(a.operator.id)).find((k) => k.mode === 'live' && k.state === 'active')!;
    expect((await resolver.resolve(liveKey.key))!.allowedOrigins).not.toContain('http://localhost:8080');
    expect((await resolver.resolve(liveKey.key))!.allowedOrigins).toContain('https://tours.alpha.example');
    expect((await resolver.resolve(a.key.key))!.allowedOrigins).toContain('http://localhost:8080');
    await h.operators.setEmbeddingEnabled(a.operator.id, false);
  });
});

describe('GET /operator/audit', () => {
  it("shows this operator's entries only, newest first", async () => {
    const res = await as(a.member).get('/operator/audit');
    expect(res.status).toBe(200);
    const body = AuditListSchema.parse(res.body);
    expect(body.entries.length).toBeGreaterThan(3);
    expect(body.entries.every((e) => e.operatorId === a.operator.id)).toBe(true);
    expect(body.entries.map((e) => e.action)).toContain('origin.added');
    const times = body.entries.map((e) => e.at);
    expect([...times].sort().reverse()).toEqual(times);
  });
});
