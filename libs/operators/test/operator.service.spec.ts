import { hashSecretKey, parsePublishableKey, secretKeyMatchesHash } from '@expedition/auth-publishable-key';
import type { Database } from '@expedition/db';
import { createTestDatabase } from '@expedition/db/testing';
import { OperatorError, type OperatorService, SecretBoxError, createOperatorService } from '../src';
import { countingRandomBytes, gateAccepts, testClock, testSecretBox } from './helpers';

let db: Database;
let clock: ReturnType<typeof testClock>;
let service: OperatorService;
const secretBox = testSecretBox();

beforeAll(async () => {
  db = await createTestDatabase();
});

afterAll(async () => {
  await db.close();
});

beforeEach(async () => {
  await db.prisma.operator.deleteMany();
  clock = testClock();
  service = createOperatorService({ prisma: db.prisma, clock, randomBytes: countingRandomBytes(), secretBox });
});

async function expectOperatorError(promise: Promise<unknown>, code: OperatorError['code'], message?: RegExp) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OperatorError);
  expect((error as OperatorError).code).toBe(code);
  if (message) expect((error as OperatorError).message).toMatch(message);
}

async function activeOperator(name = 'Ice Tours') {
  return service.createOperator({ name, status: 'active' });
}

describe('createOperator / getOperator / listOperators', () => {
  it('creates a pending operator with embedding off and the default 10 % commission', async () => {
    const created = await service.createOperator({ name: '  Arctic Ways  ', contactEmail: 'ops@arctic.example' });

    expect(created).toMatchObject({
      name: 'Arctic Ways',
      status: 'pending',
      embeddingEnabled: false,
      commissionRateBps: 1000,
      contactEmail: 'ops@arctic.example',
      websiteUrl: null,
      webhookUrl: null,
      webhookSecretSet: false,
    });
    const row = await db.prisma.operator.findUniqueOrThrow({ where: { id: created.id } });
    expect(row).toMatchObject({ name: 'Arctic Ways', status: 'pending', embeddingEnabled: false });
    expect(await service.getOperator(created.id)).toEqual(created);
  });

  it('accepts an explicit status, commission and website', async () => {
    const created = await service.createOperator({
      name: 'Svalbard Sail',
      status: 'active',
      commissionRateBps: 1250,
      websiteUrl: 'https://svalbard.example/tours',
    });
    expect(created).toMatchObject({
      status: 'active',
      commissionRateBps: 1250,
      websiteUrl: 'https://svalbard.example/tours',
    });
  });

  it.each([
    [{ name: '   ' }, /name is required/],
    [{ name: 'X', contactEmail: 'not-an-email' }, /not an email/],
    [{ name: 'X', websiteUrl: 'ftp://x.example' }, /not an http/],
    [{ name: 'X', status: 'approved' as never }, /status must be one of/],
    [{ name: 'X', commissionRateBps: 10_001 }, /0 to 10000/],
    [{ name: 'X', commissionRateBps: 12.5 }, /integer/],
  ])('rejects invalid input %j', async (input, message) => {
    await expectOperatorError(service.createOperator(input), 'invalid_input', message);
    expect(await db.prisma.operator.count()).toBe(0);
  });

  it('reports an unknown operator as not_found', async () => {
    await expectOperatorError(service.getOperator('00000000-0000-4000-8000-000000000000'), 'not_found');
    await expectOperatorError(service.getOperator('garbage'), 'not_found');
  });

  it('lists operators oldest first', async () => {
    const first = await service.createOperator({ name: 'First' });
    clock.advance(1000);
    const second = await service.createOperator({ name: 'Second' });
    expect((await service.listOperators()).map((o) => o.id)).toEqual([first.id, second.id]);
  });
});

describe('status, embedding and commission', () => {
  it('setStatus moves an operator between pending, active and suspended', async () => {
    const op = await service.createOperator({ name: 'A' });
    expect((await service.setStatus(op.id, 'active')).status).toBe('active');
    expect((await service.setStatus(op.id, 'suspended')).status).toBe('suspended');
    expect((await db.prisma.operator.findUniqueOrThrow({ where: { id: op.id } })).status).toBe('suspended');
    await expectOperatorError(service.setStatus(op.id, 'deleted' as never), 'invalid_input');
    await expectOperatorError(service.setStatus('00000000-0000-4000-8000-000000000000', 'active'), 'not_found');
  });

  it('setEmbeddingEnabled decides whether live keys pass the gate', async () => {
    const op = await activeOperator();
    const live = await service.mintPublishableKey(op.id, 'live');
    expect(await gateAccepts(db.prisma, live.key, clock.now())).toBe(false);

    expect((await service.setEmbeddingEnabled(op.id, true)).embeddingEnabled).toBe(true);
    expect(await gateAccepts(db.prisma, live.key, clock.now())).toBe(true);

    await service.setEmbeddingEnabled(op.id, false);
    expect(await gateAccepts(db.prisma, live.key, clock.now())).toBe(false);
    await expectOperatorError(service.setEmbeddingEnabled(op.id, 'yes' as never), 'invalid_input');
  });

  it('setCommissionRate accepts integers 0..10000 only', async () => {
    const op = await service.createOperator({ name: 'A' });
    expect((await service.setCommissionRate(op.id, 0)).commissionRateBps).toBe(0);
    expect((await service.setCommissionRate(op.id, 10_000)).commissionRateBps).toBe(10_000);
    for (const bad of [-1, 10_001, 99.5, Number.NaN]) {
      await expectOperatorError(service.setCommissionRate(op.id, bad), 'invalid_input');
    }
    expect((await db.prisma.operator.findUniqueOrThrow({ where: { id: op.id } })).commissionRateBps).toBe(10_000);
  });
});

describe('webhook', () => {
  it('generates a whsec_ secret of 32 random bytes, stores it sealed and returns it once', async () => {
    const op = await activeOperator();
    const result = await service.setWebhook(op.id, { url: 'https://hooks.ice.example/expedition' });

    expect(result.secretGenerated).toBe(true);
    expect(result.webhookSecret).toMatch(/^whsec_[0-9a-f]{64}$/);
    expect(result.operator.webhookUrl).toBe('https://hooks.ice.example/expedition');
    expect(result.operator.webhookSecretSet).toBe(true);
    expect(JSON.stringify(result.operator)).not.toContain(result.webhookSecret);
    const row = await db.prisma.operator.findUniqueOrThrow({ where: { id: op.id } });
    expect(row.webhookSecret).toMatch(/^sbx1\.a\./);
    expect(row.webhookSecret).not.toContain(result.webhookSecret.slice(6));
    expect(secretBox.open(row.webhookSecret!, op.id)).toBe(result.webhookSecret);
    expect(JSON.stringify(await service.getOperator(op.id))).not.toContain(result.webhookSecret);
  });

  it('generates a different secret each time', async () => {
    const op = await activeOperator();
    const a = await service.setWebhook(op.id, { url: 'https://hooks.ice.example/a' });
    const b = await service.setWebhook(op.id, { url: 'https://hooks.ice.example/a' });
    expect(a.webhookSecret).not.toBe(b.webhookSecret);
  });

  it('stores a given secret sealed, for this operator only', async () => {
    const op = await activeOperator();
    const other = await activeOperator('Other Tours');
    const result = await service.setWebhook(op.id, { url: 'https://h.example/x', secret: 'whsec_given_0123456789' });
    expect(result).toMatchObject({ webhookSecret: 'whsec_given_0123456789', secretGenerated: false });
    const stored = (await db.prisma.operator.findUniqueOrThrow({ where: { id: op.id } })).webhookSecret!;
    expect(stored).not.toContain('whsec_given');
    expect(secretBox.open(stored, op.id)).toBe('whsec_given_0123456789');
    // Copied onto another operator's row, it does not open there.
    expect(() => secretBox.open(stored, other.id)).toThrow(SecretBoxError);
  });

  it('allows plain http only for localhost and 127.0.0.1, and those only with private networks allowed (development)', async () => {
    const op = await activeOperator();
    const service = createOperatorService({ prisma: db.prisma, clock, secretBox, allowPrivateWebhookUrls: true });
    await expect(service.setWebhook(op.id, { url: 'http://localhost:4200/webhooks' })).resolves.toBeDefined();
    await expect(service.setWebhook(op.id, { url: 'http://127.0.0.1:4200/webhooks' })).resolves.toBeDefined();
    await expectOperatorError(service.setWebhook(op.id, { url: 'http://hooks.example/x' }), 'invalid_input', /https/);
    await expectOperatorError(service.setWebhook(op.id, { url: 'http://localhost.evil.example/x' }), 'invalid_input');
    await expectOperatorError(service.setWebhook(op.id, { url: 'https://u:p@hooks.example/x' }), 'invalid_input');
    await expectOperatorError(service.setWebhook(op.id, { url: 'not a url' }), 'invalid_input');
    await expectOperatorError(
      service.setWebhook(op.id, { url: 'https://h.example/x', secret: 'short' }),
      'invalid_input',
    );
    expect((await service.getOperator(op.id)).webhookUrl).toBe('http://127.0.0.1:4200/webhooks');
  });

  it.each([
    'http://169.254.169.254/latest/meta-data/',
    'https://[fd00:ec2::254]/',
    'https://10.0.0.1/hooks',
    'https://192.168.1.1/hooks',
    'https://100.64.0.1/hooks',
    'https://metadata.google.internal/computeMetadata/v1/',
    'https://0.0.0.0/',
    'http://2130706433/',
    'https://0x7f000001/',
    'https://127.1/',
    'https://[::ffff:127.0.0.1]/',
    'https://localhost:9464/metrics',
  ])('refuses %s under production rules (the default), and stores nothing', async (url) => {
    const op = await activeOperator();
    await expectOperatorError(service.setWebhook(op.id, { url }), 'invalid_input', /public internet host/);
    await expectOperatorError(service.setWebhookUrl(op.id, url), 'invalid_input', /public internet host/);
    expect(await db.prisma.operator.findUniqueOrThrow({ where: { id: op.id } })).toMatchObject({
      webhookUrl: null,
      webhookSecret: null,
    });
  });

  it('rewrapWebhookSecrets moves every secret to the current key and seals legacy plain values', async () => {
    const a = await activeOperator('Sealed under a');
    const legacy = await activeOperator('Legacy plain');
    const none = await activeOperator('No webhook');
    const { webhookSecret } = await service.setWebhook(a.id, { url: 'https://h.example/a' });
    await db.prisma.operator.update({
      where: { id: legacy.id },
      data: { webhookUrl: 'https://h.example/l', webhookSecret: 'whsec_legacy_0123456789' },
    });
    const sealedUnderA = (await db.prisma.operator.findUniqueOrThrow({ where: { id: a.id } })).webhookSecret!;

    // The keyring becomes [b, a]: b seals, a still opens.
    const rotatedBox = testSecretBox('b', 'a');
    const rotated = createOperatorService({ prisma: db.prisma, clock, secretBox: rotatedBox });
    expect(rotatedBox.open(sealedUnderA, a.id)).toBe(webhookSecret);

    const report = await rotated.rewrapWebhookSecrets();

    expect(report).toEqual({
      keyId: 'b',
      total: 2,
      rewrapped: 1,
      sealedLegacy: 1,
      alreadyCurrent: 0,
      changedMeanwhile: 0,
      failed: [],
    });
    const rowA = (await db.prisma.operator.findUniqueOrThrow({ where: { id: a.id } })).webhookSecret!;
    const rowLegacy = (await db.prisma.operator.findUniqueOrThrow({ where: { id: legacy.id } })).webhookSecret!;
    expect(rowA.startsWith('sbx1.b.')).toBe(true);
    // Only the data key was re-wrapped: the secret's iv and ciphertext are the ones sealed under a.
    expect(rowA.split('.').slice(3)).toEqual(sealedUnderA.split('.').slice(3));
    expect(testSecretBox('b').open(rowA, a.id)).toBe(webhookSecret);
    expect(testSecretBox('b').open(rowLegacy, legacy.id)).toBe('whsec_legacy_0123456789');
    expect((await db.prisma.operator.findUniqueOrThrow({ where: { id: none.id } })).webhookSecret).toBeNull();

    // Run again: nothing left to do.
    expect(await rotated.rewrapWebhookSecrets()).toMatchObject({
      total: 2,
      rewrapped: 0,
      sealedLegacy: 0,
      alreadyCurrent: 2,
    });
  });

  it('rewrapWebhookSecrets reports, and leaves alone, a value the keyring cannot open', async () => {
    const op = await activeOperator();
    await service.setWebhook(op.id, { url: 'https://h.example/a' });
    const before = (await db.prisma.operator.findUniqueOrThrow({ where: { id: op.id } })).webhookSecret!;

    const report = await createOperatorService({
      prisma: db.prisma,
      secretBox: testSecretBox('c'),
    }).rewrapWebhookSecrets();

    expect(report.failed).toEqual([{ operatorId: op.id, reason: expect.stringContaining('"a"') }]);
    expect(report.failed[0]!.reason).not.toContain(before);
    expect((await db.prisma.operator.findUniqueOrThrow({ where: { id: op.id } })).webhookSecret).toBe(before);
  });

  it('clearWebhook removes URL and secret', async () => {
    const op = await activeOperator();
    await service.setWebhook(op.id, { url: 'https://h.example/x' });
    const cleared = await service.clearWebhook(op.id);
    expect(cleared).toMatchObject({ webhookUrl: null, webhookSecretSet: false });
    expect((await db.prisma.operator.findUniqueOrThrow({ where: { id: op.id } })).webhookSecret).toBeNull();
  });
});

describe('publishable keys', () => {
  it('mints test and live keys in the spec formats and stores them', async () => {
    const op = await activeOperator();
    const test = await service.mintPublishableKey(op.id, 'test', 'staging site');
    clock.advance(1000);
    const live = await service.mintPublishableKey(op.id, 'live');

    expect(parsePublishableKey(test.key)).toEqual({ key: test.key, mode: 'test' });
    expect(parsePublishableKey(live.key)).toEqual({ key: live.key, mode: 'live' });
    expect(test).toMatchObject({ operatorId: op.id, mode: 'test', label: 'staging site', state: 'active' });
    expect(await db.prisma.publishableKey.count({ where: { operatorId: op.id } })).toBe(2);
    expect((await service.listKeys(op.id)).map((k) => k.key)).toEqual([test.key, live.key]);
  });

  it('lets a test key through the gate before live approval, and only while the operator is active', async () => {
    const op = await service.createOperator({ name: 'Pending Co' });
    const key = await service.mintPublishableKey(op.id, 'test');
    expect(await gateAccepts(db.prisma, key.key, clock.now())).toBe(false);
    await service.setStatus(op.id, 'active');
    expect(await gateAccepts(db.prisma, key.key, clock.now())).toBe(true);
    await service.setStatus(op.id, 'suspended');
    expect(await gateAccepts(db.prisma, key.key, clock.now())).toBe(false);
  });

  it('rejects an unknown operator, a bad mode and an overlong label', async () => {
    const op = await activeOperator();
    await expectOperatorError(service.mintPublishableKey('00000000-0000-4000-8000-000000000000', 'test'), 'not_found');
    await expectOperatorError(service.mintPublishableKey(op.id, 'prod' as never), 'invalid_input', /test.*live/);
    await expectOperatorError(service.mintPublishableKey(op.id, 'test', 'x'.repeat(101)), 'invalid_input');
    expect(await db.prisma.publishableKey.count()).toBe(0);
  });

  it('revokes by key or by id, immediately, and keeps the first revocation time', async () => {
    const op = await activeOperator();
    const a = await service.mintPublishableKey(op.id, 'test');
    const b = await service.mintPublishableKey(op.id, 'test');

    const revokedA = await service.revokeKey(a.key);
    expect(revokedA).toMatchObject({ id: a.id, state: 'revoked', revokedAt: clock.now() });
    expect(await gateAccepts(db.prisma, a.key, clock.now())).toBe(false);

    await service.revokeKey(b.id);
    expect(await gateAccepts(db.prisma, b.key, clock.now())).toBe(false);

    const firstRevocation = clock.now();
    clock.advance(60_000);
    expect((await service.revokeKey(a.id)).revokedAt).toEqual(firstRevocation);
  });

  it('reports unknown and malformed key references', async () => {
    await expectOperatorError(service.revokeKey(`pk_op_test_${'a'.repeat(48)}`), 'not_found');
    await expectOperatorError(service.revokeKey('00000000-0000-4000-8000-000000000000'), 'not_found');
    await expectOperatorError(service.revokeKey(`sk_op_test_${'a'.repeat(64)}`), 'invalid_input');
    await expectOperatorError(service.revokeKey(''), 'invalid_input');
  });
});

describe('rotateKey', () => {
  it('with a grace: mints a same-mode, same-label key; the old one works strictly until expiresAt', async () => {
    const op = await activeOperator();
    await service.setEmbeddingEnabled(op.id, true);
    const old = await service.mintPublishableKey(op.id, 'live', 'main site');
    const rotatedAt = clock.now();

    const { newKey, oldKey } = await service.rotateKey(old.key, { graceSeconds: 3600 });

    expect(newKey).toMatchObject({ mode: 'live', label: 'main site', state: 'active', operatorId: op.id });
    expect(newKey.key).not.toBe(old.key);
    expect(parsePublishableKey(newKey.key)?.mode).toBe('live');
    expect(oldKey).toMatchObject({ id: old.id, state: 'expiring', revokedAt: null });
    expect(oldKey.expiresAt).toEqual(new Date(rotatedAt.getTime() + 3_600_000));

    expect(await gateAccepts(db.prisma, old.key, rotatedAt)).toBe(true);
    expect(await gateAccepts(db.prisma, old.key, new Date(rotatedAt.getTime() + 3_599_999))).toBe(true);
    expect(await gateAccepts(db.prisma, old.key, new Date(rotatedAt.getTime() + 3_600_000))).toBe(false);
    expect(await gateAccepts(db.prisma, newKey.key, new Date(rotatedAt.getTime() + 3_600_000))).toBe(true);

    clock.advance(3_600_000);
    const states = Object.fromEntries((await service.listKeys(op.id)).map((k) => [k.id, k.state]));
    expect(states).toEqual({ [old.id]: 'expired', [newKey.id]: 'active' });
  });

  it('without a grace: the old key is revoked now', async () => {
    const op = await activeOperator();
    const old = await service.mintPublishableKey(op.id, 'test');

    const { newKey, oldKey } = await service.rotateKey(old.id);

    expect(oldKey).toMatchObject({ state: 'revoked', revokedAt: clock.now(), expiresAt: null });
    expect(await gateAccepts(db.prisma, old.key, clock.now())).toBe(false);
    expect(await gateAccepts(db.prisma, newKey.key, clock.now())).toBe(true);
    expect(newKey.mode).toBe('test');
  });

  it('refuses to rotate a key that is already revoked or rotated', async () => {
    const op = await activeOperator();
    const key = await service.mintPublishableKey(op.id, 'test');
    await service.rotateKey(key.key, { graceSeconds: 60 });
    await expectOperatorError(service.rotateKey(key.key, { graceSeconds: 60 }), 'conflict', /already/);

    const other = await service.mintPublishableKey(op.id, 'test');
    await service.revokeKey(other.id);
    await expectOperatorError(service.rotateKey(other.id), 'conflict');
    expect(await db.prisma.publishableKey.count({ where: { operatorId: op.id } })).toBe(3);
  });

  it('lets exactly one of two concurrent rotations of a key win', async () => {
    const op = await activeOperator();
    const key = await service.mintPublishableKey(op.id, 'test');
    const results = await Promise.allSettled([service.rotateKey(key.id), service.rotateKey(key.id)]);

    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const rejected = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect((rejected.reason as OperatorError).code).toBe('conflict');
    expect(await db.prisma.publishableKey.count({ where: { operatorId: op.id } })).toBe(2);
  });

  it('validates the grace', async () => {
    const op = await activeOperator();
    const key = await service.mintPublishableKey(op.id, 'test');
    await expectOperatorError(service.rotateKey(key.id, { graceSeconds: -1 }), 'invalid_input');
    await expectOperatorError(service.rotateKey(key.id, { graceSeconds: 1.5 }), 'invalid_input');
    expect((await service.listKeys(op.id)).map((k) => k.state)).toEqual(['active']);
  });
});

describe('secret keys', () => {
  it('returns the sk_ key once and stores only its hash and display prefix', async () => {
    const op = await activeOperator();
    const { key, secretKey } = await service.mintSecretKey(op.id, 'test');

    expect(key).toMatch(/^sk_op_test_[0-9a-f]{64}$/);
    expect(secretKey.prefix).toBe(`${key.slice(0, 'sk_op_test_'.length + 8)}…`);
    const row = await db.prisma.secretKey.findUniqueOrThrow({ where: { id: secretKey.id } });
    expect(row.hash).toBe(hashSecretKey(key));
    expect(secretKeyMatchesHash(key, row.hash)).toBe(true);
    expect(JSON.stringify(row)).not.toContain(key);
    expect(JSON.stringify(await service.listSecretKeys(op.id))).not.toContain(key);

    const live = await service.mintSecretKey(op.id, 'live');
    expect(live.key).toMatch(/^sk_op_[0-9a-f]{64}$/);
    await expectOperatorError(service.mintSecretKey(op.id, 'staging' as never), 'invalid_input');
  });
});

describe('allowed origins', () => {
  it('stores the normalized origin, idempotently', async () => {
    const op = await activeOperator();
    expect(await service.addAllowedOrigin(op.id, 'HTTPS://Tours.Example.COM:443/')).toEqual({
      origin: 'https://tours.example.com',
      added: true,
    });
    expect(await service.addAllowedOrigin(op.id, 'https://tours.example.com')).toEqual({
      origin: 'https://tours.example.com',
      added: false,
    });
    clock.advance(1000);
    await service.addAllowedOrigin(op.id, 'http://localhost:4200');

    expect(await service.listAllowedOrigins(op.id)).toEqual(['https://tours.example.com', 'http://localhost:4200']);
    expect(await db.prisma.allowedOrigin.count({ where: { operatorId: op.id } })).toBe(2);
  });

  it.each([
    'https://tours.example.com/book',
    '*.example.com',
    'ftp://files.example.com',
    'null',
    'https://a.example?x=1',
  ])('rejects %s with a clear message', async (origin) => {
    const op = await activeOperator();
    await expectOperatorError(
      service.addAllowedOrigin(op.id, origin),
      'invalid_input',
      /not a valid origin.*scheme:\/\/host/,
    );
    expect(await db.prisma.allowedOrigin.count()).toBe(0);
  });

  it('removes by any spelling of the origin and reports whether it was there', async () => {
    const op = await activeOperator();
    await service.addAllowedOrigin(op.id, 'https://tours.example.com');
    expect(await service.removeAllowedOrigin(op.id, 'https://TOURS.example.com/')).toEqual({
      origin: 'https://tours.example.com',
      removed: true,
    });
    expect(await service.removeAllowedOrigin(op.id, 'https://tours.example.com')).toEqual({
      origin: 'https://tours.example.com',
      removed: false,
    });
    expect(await service.listAllowedOrigins(op.id)).toEqual([]);
  });

  it('keeps lists per operator and reports unknown operators', async () => {
    const a = await activeOperator('A');
    const b = await activeOperator('B');
    await service.addAllowedOrigin(a.id, 'https://a.example');
    expect(await service.listAllowedOrigins(b.id)).toEqual([]);
    await expectOperatorError(
      service.addAllowedOrigin('00000000-0000-4000-8000-000000000000', 'https://a.example'),
      'not_found',
    );
  });
});
