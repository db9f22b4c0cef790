import { DAY_MS, isoDay, MODES, type Mode } from '@expedition/contracts';
import type { PolicyMailStatus } from '@expedition/db';
import { invalidInput } from './operator-error';
import { type ServiceDeps, serviceContext } from './service-context';

/** Money figures of the dashboard are sums of sales in this currency; others are counted and named, not summed. */
export const DASHBOARD_CURRENCY = 'USD';
export const DASHBOARD_MAX_DAYS = 365;

export interface DashboardFigures {
  quotes: number;
  purchases: number;
  premiumCents: number;
  commissionCents: number;
}

export interface DashboardDayView extends DashboardFigures {
  day: string;
  mode: Mode;
}

export interface RecentPolicyView {
  policyNumber: string;
  planId: string;
  planName: string;
  mode: Mode;
  premiumCents: number;
  commissionCents: number | null;
  currency: string;
  travelers: number;
  issuedAt: Date;
  /** The policyholder's confirmation e-mail: sent, pending (queued or retrying), failed (gave up), no_address (none
   * was given: nothing is sent); null for a policy issued before confirmation e-mails existed. */
  confirmationEmail: PolicyMailStatus | null;
}

export interface DashboardView {
  from: string;
  to: string;
  currency: string;
  otherCurrencies: string[];
  days: DashboardDayView[];
  totals: Record<Mode, DashboardFigures>;
  conversion: Record<Mode, number | null>;
  recentPolicies: RecentPolicyView[];
}

interface Row {
  day: string;
  mode: string;
  n: number | bigint | null;
  cents: number | bigint | null;
}

const num = (v: number | bigint | null | undefined) => (v === null || v === undefined ? 0 : Number(v));

/**
 * The operator's figures for the last `days` UTC days (today included), test and live apart: quotes created,
 * purchases, premium and commission (SQL aggregates over quotes, purchases and commissions; a commission counts on the
 * day it was earned, with the rate of that sale). Test webhook events are not sales and appear nowhere here.
 */
export function createDashboardService(deps: ServiceDeps) {
  const { prisma, clock, requireOperatorRow } = serviceContext(deps);

  async function dashboard(operatorId: string, options: { days?: number } = {}): Promise<DashboardView> {
    const days = options.days ?? 30;
    if (!Number.isInteger(days) || days < 1 || days > DASHBOARD_MAX_DAYS)
      throw invalidInput(`days must be an integer from 1 to ${DASHBOARD_MAX_DAYS}`);
    const operator = await requireOperatorRow(operatorId);
    const now = clock.now();
    const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
    const from = new Date(today - (days - 1) * DAY_MS);
    const id = operator.id;
    const cur = DASHBOARD_CURRENCY;

    const [quotes, purchases, commissions, others, recent] = await Promise.all([
      prisma.$queryRaw<Row[]>`
        SELECT to_char(created_at::date, 'YYYY-MM-DD') AS day, mode::text AS mode, count(*)::int AS n, 0::int AS cents
          FROM quotes WHERE operator_id = ${id} AND created_at >= ${from}::timestamp(3)
         GROUP BY 1, 2`,
      prisma.$queryRaw<Row[]>`
        SELECT to_char(created_at::date, 'YYYY-MM-DD') AS day, mode::text AS mode, count(*)::int AS n,
               coalesce(sum(amount_cents) FILTER (WHERE currency = ${cur}), 0)::bigint AS cents
          FROM purchases WHERE operator_id = ${id} AND created_at >= ${from}::timestamp(3)
         GROUP BY 1, 2`,
      prisma.$queryRaw<Row[]>`
        SELECT to_char(c.created_at::date, 'YYYY-MM-DD') AS day, p.mode::text AS mode, count(*)::int AS n,
               coalesce(sum(c.commission_cents) FILTER (WHERE c.currency = ${cur}), 0)::bigint AS cents
          FROM commissions c JOIN policies p ON p.id = c.policy_id
         WHERE c.operator_id = ${id} AND c.created_at >= ${from}::timestamp(3)
         GROUP BY 1, 2`,
      prisma.$queryRaw<{ currency: string }[]>`
        SELECT DISTINCT currency FROM purchases
         WHERE operator_id = ${id} AND created_at >= ${from}::timestamp(3) AND currency <> ${cur}
         ORDER BY currency`,
      prisma.policy.findMany({
        where: { operatorId: id },
        orderBy: [{ issuedAt: 'desc' }, { id: 'desc' }],
        take: 10,
        include: {
          plan: { select: { name: true } },
          commission: { select: { commissionCents: true } },
          mails: { where: { kind: 'confirmation' }, select: { status: true } },
        },
      }),
    ]);

    const series = new Map<string, DashboardDayView>();
    const dayKeys: string[] = [];
    for (let t = from.getTime(); t <= today; t += DAY_MS) {
      const day = isoDay(t);
      dayKeys.push(day);
      for (const mode of MODES)
        series.set(`${day}|${mode}`, { day, mode, quotes: 0, purchases: 0, premiumCents: 0, commissionCents: 0 });
    }
    const at = (r: Row) => series.get(`${r.day}|${r.mode}`);
    for (const r of quotes) {
      const d = at(r);
      if (d) d.quotes += num(r.n);
    }
    for (const r of purchases) {
      const d = at(r);
      if (d) {
        d.purchases += num(r.n);
        d.premiumCents += num(r.cents);
      }
    }
    for (const r of commissions) {
      const d = at(r);
      if (d) d.commissionCents += num(r.cents);
    }

    const totals: Record<Mode, DashboardFigures> = {
      test: { quotes: 0, purchases: 0, premiumCents: 0, commissionCents: 0 },
      live: { quotes: 0, purchases: 0, premiumCents: 0, commissionCents: 0 },
    };
    const daysOut = dayKeys.flatMap((day) => MODES.map((mode) => series.get(`${day}|${mode}`)!));
    for (const d of daysOut) {
      const t = totals[d.mode];
      t.quotes += d.quotes;
      t.purchases += d.purchases;
      t.premiumCents += d.premiumCents;
      t.commissionCents += d.commissionCents;
    }
    const rate = (m: Mode) => (totals[m].quotes === 0 ? null : Math.min(1, totals[m].purchases / totals[m].quotes));

    return {
      from: dayKeys[0]!,
      to: dayKeys[dayKeys.length - 1]!,
      currency: cur,
      otherCurrencies: others.map((o) => o.currency),
      days: daysOut,
      totals,
      conversion: { test: rate('test'), live: rate('live') },
      recentPolicies: recent.map((p) => ({
        policyNumber: p.policyNumber,
        planId: p.planId,
        planName: p.plan.name,
        mode: p.mode,
        premiumCents: p.premiumCents,
        commissionCents: p.commission?.commissionCents ?? null,
        currency: p.currency,
        travelers: p.travelers,
        issuedAt: p.issuedAt,
        confirmationEmail: p.mails[0]?.status ?? null,
      })),
    };
  }

  return { dashboard };
}
