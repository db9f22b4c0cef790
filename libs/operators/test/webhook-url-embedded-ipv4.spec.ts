import { createWebhookSecretService } from '../src/lib/webhook-secret.service';
import { expectOperatorError, activeOperator, useOperatorFixture } from './operator-fixture';

/**
 * An operator's webhook URL, as the provider sets it in the portal (PUT /admin/operators/:id/webhook, which calls
 * setWebhookUrl): an IPv6 literal that carries a refused IPv4 address is refused like that address
 * (libs/platform outbound-address.ts, classifyAddress), in production and, for the tunnelled forms, in development too.
 */

const f = useOperatorFixture();

/** 127.0.0.1 or 169.254.169.254 inside IPv6: compatible, translated, NAT64 (well-known and local-use), 6to4, Teredo. */
const CARRYING_REFUSED = [
  'https://[::127.0.0.1]/hooks',
  'https://[::7f00:1]/hooks',
  'https://[::a9fe:a9fe]/latest/meta-data',
  'https://[::ffff:0:7f00:1]/hooks',
  'https://[64:ff9b::7f00:1]/hooks',
  'https://[64:ff9b:1::a9fe:a9fe]/hooks',
  'https://[2002:7f00:1::]/hooks',
  'https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/hooks',
];

describe('webhook URLs to IPv6 forms of a refused IPv4 address', () => {
  it.each(CARRYING_REFUSED)('refuses %s under production rules, and stores nothing', async (url) => {
    const op = await activeOperator(f);
    const { webhookSecrets } = f.services;
    await expectOperatorError(webhookSecrets.setWebhookUrl(op.id, url), 'invalid_input', /public internet host/);
    await expectOperatorError(webhookSecrets.setWebhook(op.id, { url }), 'invalid_input', /public internet host/);
    expect(await f.db.prisma.operator.findUniqueOrThrow({ where: { id: op.id } })).toMatchObject({
      webhookUrl: null,
      webhookSecret: null,
    });
  });

  it('refuses the tunnelled forms of 127.0.0.1 in development too (only loopback itself is reachable there)', async () => {
    const op = await activeOperator(f);
    const dev = createWebhookSecretService({
      prisma: f.db.prisma,
      clock: f.clock,
      secretBox: f.secretBox,
      allowPrivateWebhookUrls: true,
    });
    for (const url of ['https://[::7f00:1]/h', 'https://[64:ff9b::7f00:1]/h', 'https://[2002:7f00:1::]/h'])
      await expectOperatorError(dev.setWebhookUrl(op.id, url), 'invalid_input', /not a loopback address/);
    await expect(dev.setWebhookUrl(op.id, 'https://[::ffff:127.0.0.1]:4200/h')).resolves.toBeDefined();
  });
});
