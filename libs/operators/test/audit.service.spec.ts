import type { AuditActor } from '../src/lib/audit';
import { activeOperator, expectOperatorError, useOperatorFixture } from './operator-fixture';

const f = useOperatorFixture();
const actor: AuditActor = { userId: null, email: 'ops@provider.example', role: 'provider_admin', ip: '198.51.100.4' };

describe('audit log', () => {
  it('lists one entry per change, newest first, with actor, target, before → after and the operator’s name', async () => {
    const op = await activeOperator(f);
    f.clock.advance(1000);
    await f.services.profiles.setCommissionRate(op.id, 1250, actor);
    f.clock.advance(1000);
    await f.services.origins.addAllowedOrigin(op.id, 'https://tours.example.com', actor);

    const { entries, nextCursor } = await f.services.audit.listAuditEntries({ operatorId: op.id });
    expect(nextCursor).toBeNull();
    expect(entries.map((e) => e.action)).toEqual(['origin.added', 'operator.commission_changed', 'operator.created']);
    expect(entries[1]).toMatchObject({
      actor: { userId: null, email: 'ops@provider.example', role: 'provider_admin' },
      ip: '198.51.100.4',
      operatorId: op.id,
      operatorName: 'Ice Tours',
      targetType: 'operator',
      targetId: op.id,
      before: { commissionRateBps: 1000 },
      after: { commissionRateBps: 1250 },
    });
    // Without an actor, the service's default: the platform itself.
    expect(entries[2]!.actor).toEqual({ userId: null, email: 'system', role: 'system' });
  });

  it('pages with an opaque cursor, filters by action, and refuses a cursor it did not issue', async () => {
    const op = await activeOperator(f);
    for (const bps of [1100, 1200, 1300]) {
      f.clock.advance(1000);
      await f.services.profiles.setCommissionRate(op.id, bps);
    }
    const first = await f.services.audit.listAuditEntries({
      operatorId: op.id,
      action: 'operator.commission_changed',
      limit: 2,
    });
    expect(first.entries.map((e) => e.after)).toEqual([{ commissionRateBps: 1300 }, { commissionRateBps: 1200 }]);
    const second = await f.services.audit.listAuditEntries({
      operatorId: op.id,
      action: 'operator.commission_changed',
      limit: 2,
      cursor: first.nextCursor!,
    });
    expect(second.entries.map((e) => e.after)).toEqual([{ commissionRateBps: 1100 }]);
    expect(second.nextCursor).toBeNull();
    await expectOperatorError(f.services.audit.listAuditEntries({ cursor: 'garbage' }), 'invalid_input');
  });
});
