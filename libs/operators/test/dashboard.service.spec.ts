import { DASHBOARD_CURRENCY, DASHBOARD_MAX_DAYS } from '../src/lib/dashboard.service';
import { activeOperator, expectOperatorError, useOperatorFixture } from './operator-fixture';

const f = useOperatorFixture();

describe('dashboard', () => {
  it('an operator without sales: one zero row per UTC day and mode, no conversion, no recent policies', async () => {
    const op = await activeOperator(f);
    const view = await f.services.dashboard.dashboard(op.id, { days: 7 });
    expect(view.to).toBe(f.clock.now().toISOString().slice(0, 10));
    expect(view.days).toHaveLength(14);
    expect(view.days[0]).toEqual({
      day: view.from,
      mode: 'test',
      quotes: 0,
      purchases: 0,
      premiumCents: 0,
      commissionCents: 0,
    });
    expect(view).toMatchObject({
      currency: DASHBOARD_CURRENCY,
      otherCurrencies: [],
      conversion: { test: null, live: null },
      recentPolicies: [],
    });
  });

  it('refuses a window outside 1..DASHBOARD_MAX_DAYS and an unknown operator', async () => {
    const op = await activeOperator(f);
    for (const days of [0, DASHBOARD_MAX_DAYS + 1, 1.5]) {
      await expectOperatorError(f.services.dashboard.dashboard(op.id, { days }), 'invalid_input');
    }
    await expectOperatorError(f.services.dashboard.dashboard('00000000-0000-4000-8000-000000000000'), 'not_found');
  });
});
