import { SecretBoxError } from '../src/lib/secret-box';
import { createWebhookSecretService } from '../src/lib/webhook-secret.service';
import type { OperatorProfileService } from '../src/lib/operator-profile.service';
import type { WebhookSecretService } from '../src/lib/webhook-secret.service';
import { expectOperatorError, activeOperator, useOperatorFixture } from './operator-fixture';
import { testSecretBox } from './helpers';

const f = useOperatorFixture();
const { secretBox } = f;
let profiles: OperatorProfileService;
let webhooks: WebhookSecretService;
beforeEach(() => {
  ({ profiles, webhookSecrets: webhooks } = f.services);
});

describe('webhook', () => {
  it('generates a whsec_ secret of 32 random bytes, stores it sealed and returns it once', async () => {
    const op = await activeOperator(f);
    const result = await webhooks.setWebhook(op.id, { url: 'https://hooks.ice.example/expedition' });

    expect(result.secretGenerated).toBe(true);
    expect(result.webhookSecret).toMatch(/^whsec_[0-9a-f]{64}$/);
    expect(result.operator.webhookUrl).toBe('https://hooks.ice.example/expedition');
    expect(result.operator.webhookSecretSet).toBe(true);
    expect(JSON.stringify(result.operator)).not.toContain(result.webhookSecret);
    const row = await f.db.prisma.operator.findUniqueOrThrow({ where: { id: op.id } });
    expect(row.webhookSecret).toMatch(/^sbx1\.a\./);
    expect(row.webhookSecret).not.toContain(result.webhookSecret.slice(6));
    expect(secretBox.open(row.webhookSecret!, op.id)).toBe(result.webhookSecret);
    expect(JSON.stringify(await profiles.getOperator(op.id))).not.toContain(result.webhookSecret);
  });

  it('generates a different secret each time', async () => {
    const op = await activeOperator(f);
    const a = await webhooks.setWebhook(op.id, { url: 'https://hooks.ice.example/a' });
    const b = await webhooks.setWebhook(op.id, { url: 'https://hooks.ice.example/a' });
    expect(a.webhookSecret).not.toBe(b.webhookSecret);
  });

  it('stores a given secret sealed, for this operator only', async () => {
    const op = await activeOperator(f);
    const other = await activeOperator(f, 'Other Tours');
    const result = await webhooks.setWebhook(op.id, { url: 'https://h.example/x', secret: 'whsec_given_0123456789' });
    expect(result).toMatchObject({ webhookSecret: 'whsec_given_0123456789', secretGenerated: false });
    const stored = (await f.db.prisma.operator.findUniqueOrThrow({ where: { id: op.id } })).webhookSecret!;
    expect(stored).not.toContain('whsec_given');
    expect(secretBox.open(stored, op.id)).toBe('whsec_given_0123456789');
    // Copied onto another operator's row, it does not open there.
    expect(() => secretBox.open(stored, other.id)).toThrow(SecretBoxError);
  });

  it('allows plain http only for localhost and 127.0.0.1, and those only with private networks allowed (development)', async () => {
    const op = await activeOperator(f);
    const dev = createWebhookSecretService({
      prisma: f.db.prisma,
      clock: f.clock,
      secretBox,
      allowPrivateWebhookUrls: true,
    });
    await expect(dev.setWebhook(op.id, { url: 'http://localhost:4200/webhooks' })).resolves.toBeDefined();
    await expect(dev.setWebhook(op.id, { url: 'http://127.0.0.1:4200/webhooks' })).resolves.toBeDefined();
    await expectOperatorError(dev.setWebhook(op.id, { url: 'http://hooks.example/x' }), 'invalid_input', /https/);
    await expectOperatorError(dev.setWebhook(op.id, { url: 'http://localhost.evil.example/x' }), 'invalid_input');
    await expectOperatorError(dev.setWebhook(op.id, { url: 'https://u:p@hooks.example/x' }), 'invalid_input');
    await expectOperatorError(dev.setWebhook(op.id, { url: 'not a url' }), 'invalid_input');
    await expectOperatorError(dev.setWebhook(op.id, { url: 'https://h.example/x', secret: 'short' }), 'invalid_input');
    expect((await profiles.getOperator(op.id)).webhookUrl).toBe('http://127.0.0.1:4200/webhooks');
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
    const op = await activeOperator(f);
    await expectOperatorError(webhooks.setWebhook(op.id, { url }), 'invalid_input', /public internet host/);
    await expectOperatorError(webhooks.setWebhookUrl(op.id, url), 'invalid_input', /public internet host/);
    expect(await f.db.prisma.operator.findUniqueOrThrow({ where: { id: op.id } })).toMatchObject({
      webhookUrl: null,
      webhookSecret: null,
    });
  });

  it('rewrapWebhookSecrets moves every secret to the current key and seals legacy plain values', async () => {
    const a = await activeOperator(f, 'Sealed under a');
    const legacy = await activeOperator(f, 'Legacy plain');
    const none = await activeOperator(f, 'No webhook');
    const { webhookSecret } = await webhooks.setWebhook(a.id, { url: 'https://h.example/a' });
    await f.db.prisma.operator.update({
      where: { id: legacy.id },
      data: { webhookUrl: 'https://h.example/l', webhookSecret: 'whsec_legacy_0123456789' },
    });
    const sealedUnderA = (await f.db.prisma.operator.findUniqueOrThrow({ where: { id: a.id } })).webhookSecret!;

    // The keyring becomes [b, a]: b seals, a still opens.
    const rotatedBox = testSecretBox('b', 'a');
    const rotated = createWebhookSecretService({ prisma: f.db.prisma, clock: f.clock, secretBox: rotatedBox });
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
    const rowA = (await f.db.prisma.operator.findUniqueOrThrow({ where: { id: a.id } })).webhookSecret!;
    const rowLegacy = (await f.db.prisma.operator.findUniqueOrThrow({ where: { id: legacy.id } })).webhookSecret!;
    expect(rowA.startsWith('sbx1.b.')).toBe(true);
    // Only the data key was re-wrapped: the secret's iv and ciphertext are the ones sealed under a.
    expect(rowA.split('.').slice(3)).toEqual(sealedUnderA.split('.').slice(3));
    expect(testSecretBox('b').open(rowA, a.id)).toBe(webhookSecret);
    expect(testSecretBox('b').open(rowLegacy, legacy.id)).toBe('whsec_legacy_0123456789');
    expect((await f.db.prisma.operator.findUniqueOrThrow({ where: { id: none.id } })).webhookSecret).toBeNull();

    // Run again: nothing left to do.
    expect(await rotated.rewrapWebhookSecrets()).toMatchObject({
      total: 2,
      rewrapped: 0,
      sealedLegacy: 0,
      alreadyCurrent: 2,
    });
  });

  it('rewrapWebhookSecrets reports, and leaves alone, a value the keyring cannot open', async () => {
    const op = await activeOperator(f);
    await webhooks.setWebhook(op.id, { url: 'https://h.example/a' });
    const before = (await f.db.prisma.operator.findUniqueOrThrow({ where: { id: op.id } })).webhookSecret!;

    const report = await createWebhookSecretService({
      prisma: f.db.prisma,
      secretBox: testSecretBox('c'),
    }).rewrapWebhookSecrets();

    expect(report.failed).toEqual([{ operatorId: op.id, reason: expect.stringContaining('"a"') }]);
    expect(report.failed[0]!.reason).not.toContain(before);
    expect((await f.db.prisma.operator.findUniqueOrThrow({ where: { id: op.id } })).webhookSecret).toBe(before);
  });

  it('clearWebhook removes URL and secret', async () => {
    const op = await activeOperator(f);
    await webhooks.setWebhook(op.id, { url: 'https://h.example/x' });
    const cleared = await webhooks.clearWebhook(op.id);
    expect(cleared).toMatchObject({ webhookUrl: null, webhookSecretSet: false });
    expect((await f.db.prisma.operator.findUniqueOrThrow({ where: { id: op.id } })).webhookSecret).toBeNull();
  });
});
