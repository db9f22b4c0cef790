import { randomBytes } from 'node:crypto';
import { createDatabase, type Database } from '@expedition/db';
import { describeWithPostgres, testDatabaseUrl } from '@expedition/db/testing';
import { formatAuthorizationPayment, parsePaymentChallenges } from '@expedition/payments';
import { launch, type Launched } from '../launcher-harness';
import { postgresLaunch } from './hostile.helpers';
import { json, TRIP } from './money.helpers';

/**
 * kill -9 of the whole platform in the middle of payments, on PostgreSQL (docs/decisions.md, "One charge per quote
 * through any crash"). `npm start`'s launcher takes, for each of a dozen quotes, an MPP purchase and a checkout-link
 * payment fired at the same moment, and is killed (SIGKILL) after a random few milliseconds: some requests are cut
 * before the processor call, some after it, some after our record. A new launcher on the same database, once the dead
 * holders' leases have lapsed, takes a second payment of every quote through the other channel, and its reconciler
 * runs. Counted by the simulated processor's own books (beside the database's schema, which outlive the process as a
 * real processor's would): every quote ends with exactly one charge kept and exactly one policy. The traveler's name
 * and e-mail given on the way never appear in a log line of either launcher.
 */
const QUOTES = 12;
const NAME = 'Zofia Łukasiewicz-Ørsted';
const EMAIL = `zofia.kill9.${randomBytes(4).toString('hex')}@traveler.example`;
const run = randomBytes(5).toString('hex');
const database = postgresLaunch('kill9');
const { schema } = database;

describeWithPostgres()('hostile: kill -9 mid-payment, then the other channel (PostgreSQL)', () => {
  let db: Database;
  let platform: Launched | undefined;
  const env = {
    ...database.env,
    PAYMENTS_RECONCILE_INTERVAL_MS: '1000',
    LOG_LEVEL: 'info',
  };
  const logs: string[] = [];

  beforeAll(async () => {
    db = await createDatabase({ databaseUrl: testDatabaseUrl() });
  });
  afterAll(async () => {
    if (platform) await platform.stop();
    await db.close();
    await database.drop();
  });

  async function quoteWithLink(p: Launched) {
    const quoted = await fetch(`${p.urls.quote}/api/v1/quotes`, json({ ...TRIP, operator: p.demo.operatorId }));
    const body = (await quoted.json()) as {
      quoteId: string;
      sessionId: string;
      plans: { planId: string; availabilityMode: string }[];
    };
    const planId = body.plans.find((plan) => plan.availabilityMode === 'full')!.planId;
    return { quoteId: body.quoteId, sessionId: body.sessionId, planId };
  }

  const linkPay = async (p: Launched, q: { quoteId: string; sessionId: string; planId: string }) => {
    const link = await fetch(
      `${p.urls.quote}/api/v1/checkout`,
      json({ ...q, email: EMAIL, guestNames: [NAME, 'Jan Kowalski'] }),
    );
    if (link.status !== 200) return link.status;
    const { checkoutUrl } = (await link.json()) as { checkoutUrl: string };
    const paid = await fetch(checkoutUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ cardNumber: '4242424242424242', email: EMAIL }).toString(),
      redirect: 'manual',
    });
    return paid.status;
  };

  const mppPay = async (p: Launched, q: { quoteId: string; planId: string }, spt: string) => {
    const first = await fetch(`${p.urls.quote}/api/v1/purchase`, json({ quoteId: q.quoteId, planId: q.planId }));
    if (first.status !== 402) return first.status;
    const [challenge] = parsePaymentChallenges(first.headers.get('www-authenticate')!);
    const credential = formatAuthorizationPayment({ challenge: challenge!, payload: { spt } });
    const paid = await fetch(
      `${p.urls.quote}/api/v1/purchase`,
      json({ quoteId: q.quoteId, planId: q.planId }, { Authorization: credential }),
    );
    return paid.status;
  };

  async function books(quoteId: string) {
    const rows = await db.prisma
      .$queryRawUnsafe<
        { record: { intent: { id: string; status: string; amount: number }; refunds?: { amount: number }[] } }[]
      >(`SELECT record FROM "${schema}_simulated_processor"."payments" WHERE quote_id = $1`, quoteId)
      .catch(
        // The processor makes its books on its first payment.
        () => [],
      );
    const charged = rows.map((r) => r.record).filter((r) => r.intent.status === 'succeeded');
    const kept = charged.filter((r) => (r.refunds ?? []).reduce((s, x) => s + x.amount, 0) < r.intent.amount);
    return { made: charged.length, kept: kept.map((r) => r.intent.id) };
  }

  const purchased = async (quoteId: string) =>
    (
      await db.prisma.$queryRawUnsafe<{ n: number }[]>(
        `SELECT count(*)::int AS n FROM "${schema}"."purchases" WHERE quote_id = $1`,
        quoteId,
      )
    )[0]!.n > 0;
  const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const chargesOf = async (quotes: { quoteId: string }[]) => {
    let made = 0;
    for (const q of quotes) made += (await books(q.quoteId)).made;
    return made;
  };

  it('every quote ends with one charge kept and one policy; no name or address in the logs', async () => {
    const first = await launch({ env });
    platform = first;
    const quotes: Awaited<ReturnType<typeof quoteWithLink>>[] = [];
    for (let i = 0; i < QUOTES; i++) quotes.push(await quoteWithLink(first));

    // Both channels at once on every quote, the quotes a few milliseconds apart, and the whole platform killed as soon
    // as the processor's books hold the first charge: some requests are then done, some mid-way, some not begun.
    const inFlight = quotes.flatMap((q, i) => [
      delay(i * 15).then(() => mppPay(first, q, `spt_test_success_kill9_${run}_${i}_a`)),
      delay(i * 15).then(() => linkPay(first, q)),
    ]);
    const watchUntil = Date.now() + 20_000;
    while ((await chargesOf(quotes)) === 0 && Date.now() < watchUntil) await delay(5);
    logs.push(first.output());
    await first.kill();
    platform = undefined;
    const cut = (await Promise.allSettled(inFlight)).filter((r) => r.status === 'rejected').length;
    const madeBeforeKill = await chargesOf(quotes);
    expect(madeBeforeKill).toBeGreaterThan(0);

    const second = await launch({ env, dataDir: first.dataDir });
    platform = second;
    // The dead holders' claims lapse (30 s); then every quote is paid again through the other channel.
    await delay(31_000);
    // As a traveler would: pay, and while the answer is "in progress, retry" (an attempt the reconciler is settling),
    // try again a second later.
    const paidAgain = async (q: (typeof quotes)[number], i: number) => {
      const statuses: number[] = [];
      for (let n = 0; n < 15; n++) {
        const spt = `spt_test_success_kill9_${run}_${i}_b${n}`;
        statuses.push(i % 2 === 0 ? await linkPay(second, q) : await mppPay(second, q, spt));
        if (await purchased(q.quoteId)) break;
        await delay(1000);
      }
      return statuses;
    };
    const again = (await Promise.all(quotes.map(paidAgain))).flat();
    for (const status of again) expect(status).toBeLessThan(500);
    // The reconciler (every second) finishes what neither channel did.
    const deadline = Date.now() + 30_000;
    for (;;) {
      const unfinished = await db.prisma.$queryRawUnsafe<{ n: number }[]>(
        `SELECT count(*)::int AS n FROM "${schema}"."payment_claims" WHERE attempt_started_at IS NOT NULL`,
      );
      if (unfinished[0]!.n === 0 || Date.now() > deadline) break;
      await delay(500);
    }

    let made = 0;
    for (const q of quotes) {
      const counted = await books(q.quoteId);
      made += counted.made;
      expect(counted.kept).toHaveLength(1);
      const [purchase] = await db.prisma.$queryRawUnsafe<{ processor_payment_id: string }[]>(
        `SELECT processor_payment_id FROM "${schema}"."purchases" WHERE quote_id = $1`,
        q.quoteId,
      );
      expect(counted.kept).toEqual([purchase!.processor_payment_id]);
      const [policies] = await db.prisma.$queryRawUnsafe<{ n: number }[]>(
        `SELECT count(*)::int AS n FROM "${schema}"."policies" WHERE quote_id = $1`,
        q.quoteId,
      );
      expect(policies!.n).toBe(1);
    }
    // What the run came to, for the record: requests cut by the kill, charges made, all but one per quote refunded.
    console.info(
      `kill -9: ${cut} of ${QUOTES * 2} requests cut, ${madeBeforeKill} charges made before the kill; ` +
        `${made} made in all for ${QUOTES} quotes, ${QUOTES} kept; second payments answered ${again.join(' ')}`,
    );

    logs.push(second.output());
    const all = logs.join('\n');
    expect(all.length).toBeGreaterThan(0);
    for (const secret of [NAME, 'Łukasiewicz', EMAIL]) expect(all).not.toContain(secret);
  }, 240_000);
});
