import { createSimulatedProcessor, simulatedBooks } from '@expedition/payments';
import { waitFor } from './services';
import { mppPayment, pool } from './traffic';
import type { Topology } from './topology';

/**
 * Leaves, on each of `quoteIds` (already bought), what a replica killed mid-payment would: a second charge the
 * processor made under the quote's next attempt key, and that attempt marked started with its lease run out. Made by
 * a processor on the same books whose events never arrive, so only the dispatchers' reconcilers can find the charges.
 */
export async function leaveUnrecordedCharges(topo: Topology, quoteIds: string[]): Promise<string[]> {
  const processor = createSimulatedProcessor({
    webhookUrl: 'http://127.0.0.1:9/nobody',
    webhookSecret: 'whsec_sim_topology_reconcile_0123456789abcdef',
    store: simulatedBooks(topo.db),
    fetch: async () => ({ status: 200 }),
    delivery: { maxAttempts: 1, resend: { enabled: false } },
  });
  const charges: string[] = [];
  for (const quoteId of quoteIds) {
    const purchase = await topo.db.prisma.purchase.findUniqueOrThrow({ where: { quoteId } });
    const key = `pay_${quoteId}_a2`;
    const settled = await processor.settleSharedPaymentToken({
      amountCents: purchase.amountCents,
      currency: purchase.currency.toLowerCase(),
      mode: purchase.mode,
      spt: `spt_test_success_topology_second_${quoteId}`,
      challengeId: 'topology_second_charge',
      idempotencyKey: key,
      // An agent's second payment (ACP): it names no MPP challenge of ours.
      metadata: { quoteId, planId: purchase.planId, channel: 'acp' },
    });
    charges.push(settled.paymentId!);
    await topo.db.prisma.paymentClaim.update({
      where: { quoteId },
      data: { attempt: 2, attemptStartedAt: new Date(), processorKey: key, leaseUntil: new Date(Date.now() - 1) },
    });
  }
  return charges;
}

/** Waits until no attempt is left started, then counts the refunds the processor's books hold for each charge. */
export async function refundsOf(topo: Topology, charges: string[]): Promise<number[]> {
  await waitFor(
    async () => (await topo.db.prisma.paymentClaim.count({ where: { attemptStartedAt: { not: null } } })) === 0,
    60_000,
    'the reconcilers to resolve every unfinished attempt',
  );
  const books = simulatedBooks(topo.db);
  return Promise.all(charges.map(async (id) => ((await books.get(id))?.refunds ?? []).length));
}

/**
 * `count` quotes bought over MPP, each then left with an unrecorded second charge and a started attempt; both
 * dispatcher replicas reconcile every second. The refunds the books hold per second charge, and the policies.
 */
export async function reconcileRace(topo: Topology, count: number) {
  const urls = topo.quoteApi.map((q) => q.url);
  const paid = await pool(count, 5, (n) => mppPayment(urls, topo.operatorId, 10_000 + n));
  const quoteIds = paid.map((r) => r.quoteId!);
  const charges = await leaveUnrecordedCharges(topo, quoteIds);
  const refunds = await refundsOf(topo, charges);
  const policies = await topo.db.prisma.policy.count({ where: { quoteId: { in: quoteIds } } });
  return { charges, refunds, policies };
}
