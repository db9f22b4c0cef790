import type { OperatorProfileService } from '../src/lib/operator-profile.service';
import type { PublishableKeyService } from '../src/lib/publishable-key.service';
import { expectOperatorError, activeOperator, useOperatorFixture } from './operator-fixture';
import { gateAccepts } from './helpers';

const f = useOperatorFixture();
let profiles: OperatorProfileService;
let keys: PublishableKeyService;
beforeEach(() => {
  ({ profiles, publishableKeys: keys } = f.services);
});

describe('createOperator / getOperator / listOperators', () => {
  it('creates a pending operator with embedding off and the default 10 % commission', async () => {
    const created = await profiles.createOperator({ name: '  Arctic Ways  ', contactEmail: 'ops@arctic.example' });

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
    const row = await f.db.prisma.operator.findUniqueOrThrow({ where: { id: created.id } });
    expect(row).toMatchObject({ name: 'Arctic Ways', status: 'pending', embeddingEnabled: false });
    expect(await profiles.getOperator(created.id)).toEqual(created);
  });

  it('accepts an explicit status, commission and website', async () => {
    const created = await profiles.createOperator({
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
    await expectOperatorError(profiles.createOperator(input), 'invalid_input', message);
    expect(await f.db.prisma.operator.count()).toBe(0);
  });

  it('reports an unknown operator as not_found', async () => {
    await expectOperatorError(profiles.getOperator('00000000-0000-4000-8000-000000000000'), 'not_found');
    await expectOperatorError(profiles.getOperator('garbage'), 'not_found');
  });

  it('lists operators oldest first', async () => {
    const first = await profiles.createOperator({ name: 'First' });
    f.clock.advance(1000);
    const second = await profiles.createOperator({ name: 'Second' });
    expect((await profiles.listOperators()).map((o) => o.id)).toEqual([first.id, second.id]);
  });
});

describe('status, embedding and commission', () => {
  it('setStatus moves an operator between pending, active and suspended', async () => {
    const op = await profiles.createOperator({ name: 'A' });
    expect((await profiles.setStatus(op.id, 'active')).status).toBe('active');
    expect((await profiles.setStatus(op.id, 'suspended')).status).toBe('suspended');
    expect((await f.db.prisma.operator.findUniqueOrThrow({ where: { id: op.id } })).status).toBe('suspended');
    await expectOperatorError(profiles.setStatus(op.id, 'deleted' as never), 'invalid_input');
    await expectOperatorError(profiles.setStatus('00000000-0000-4000-8000-000000000000', 'active'), 'not_found');
  });

  it('setEmbeddingEnabled decides whether live keys pass the gate', async () => {
    const op = await activeOperator(f);
    const live = await keys.mintPublishableKey(op.id, 'live');
    expect(await gateAccepts(f.db.prisma, live.key, f.clock.now())).toBe(false);

    expect((await profiles.setEmbeddingEnabled(op.id, true)).embeddingEnabled).toBe(true);
    expect(await gateAccepts(f.db.prisma, live.key, f.clock.now())).toBe(true);

    await profiles.setEmbeddingEnabled(op.id, false);
    expect(await gateAccepts(f.db.prisma, live.key, f.clock.now())).toBe(false);
    await expectOperatorError(profiles.setEmbeddingEnabled(op.id, 'yes' as never), 'invalid_input');
  });

  it('setCommissionRate accepts integers 0..10000 only', async () => {
    const op = await profiles.createOperator({ name: 'A' });
    expect((await profiles.setCommissionRate(op.id, 0)).commissionRateBps).toBe(0);
    expect((await profiles.setCommissionRate(op.id, 10_000)).commissionRateBps).toBe(10_000);
    for (const bad of [-1, 10_001, 99.5, Number.NaN]) {
      await expectOperatorError(profiles.setCommissionRate(op.id, bad), 'invalid_input');
    }
    expect((await f.db.prisma.operator.findUniqueOrThrow({ where: { id: op.id } })).commissionRateBps).toBe(10_000);
  });
});
