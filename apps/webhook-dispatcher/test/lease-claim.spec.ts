import { randomBytes, randomUUID } from 'node:crypto';
import { Prisma } from '@expedition/db';
import { hashToken } from '@expedition/platform';
import { claimDueRows, recordFenced, type ClaimOptions, type LeasedOutbox } from '../src/outbox/lease-claim';
import { createHarness, type Harness } from './harness';
import { createOperator, enqueueWebhook } from './fixtures';

/**
 * The one claim and fence of the dispatcher's leased outboxes (src/outbox/lease-claim.ts), on the rows themselves:
 * the workers' behaviour on top of it is covered by delivery-lease, crash-recovery, policy-mail-crash and replicas.
 */

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

interface Claimed {
  id: string;
  attempts: number;
  lockedUntil: Date;
}

const READ = Prisma.sql`SELECT c.id, c.attempts, c.locked_until AS "lockedUntil" FROM claimed AS c`;
const LEASE_MS = 10_000;
const options = (limit = 10): ClaimOptions => ({ now: h.clock.now(), leaseMs: LEASE_MS, limit });
const claim = (outbox: LeasedOutbox, limit = 10) => claimDueRows<Claimed>(h.prisma, outbox, [], READ, options(limit));
const leaseEnd = () => new Date(h.clock.now().getTime() + LEASE_MS);

/** Empties both outboxes and adds `n` due webhook rows, due one millisecond apart (oldest first). */
async function dueWebhookRows(n: number) {
  await h.prisma.webhookAttempt.deleteMany({});
  await h.prisma.webhookEvent.deleteMany({});
  const operator = await createOperator(h.prisma);
  const rows = [];
  for (let i = 0; i < n; i++) {
    rows.push(await enqueueWebhook(h.prisma, operator.id, new Date(h.clock.now().getTime() - n + i)));
  }
  return rows;
}

async function dueAcpOrderEvent() {
  const key = await h.prisma.agentKey.create({
    data: { name: 'Platform', mode: 'test', prefix: 'acpk_test_x', hash: hashToken(randomBytes(16).toString('hex')) },
  });
  return h.prisma.acpOrderEvent.create({
    data: {
      eventId: `evt_${randomUUID()}`,
      agentKeyId: key.id,
      type: 'order_create',
      checkoutSessionId: `acs_${randomBytes(8).toString('hex')}`,
      payload: {},
      nextAttemptAt: h.clock.now(),
    },
  });
}

describe('claimDueRows', () => {
  it('claims due pending rows oldest first, up to the limit, reserving the attempt and setting the lease', async () => {
    const [first, second, third] = await dueWebhookRows(3);
    const claimed = await claim('webhook_events', 2);
    expect(claimed.map((c) => c.id).sort()).toEqual([first!.id, second!.id].sort());
    for (const c of claimed) expect(c).toMatchObject({ attempts: 1, lockedUntil: leaseEnd() });
    expect(await h.prisma.webhookEvent.findUniqueOrThrow({ where: { id: third!.id } })).toMatchObject({
      attempts: 0,
      lockedUntil: null,
    });
  });

  it('leaves rows that are not due: later, leased, delivered or failed', async () => {
    const [later, leased, delivered, failed] = await dueWebhookRows(4);
    const future = new Date(h.clock.now().getTime() + 1);
    await h.prisma.webhookEvent.update({ where: { id: later!.id }, data: { nextAttemptAt: future } });
    await h.prisma.webhookEvent.update({ where: { id: leased!.id }, data: { lockedUntil: future } });
    await h.prisma.webhookEvent.update({ where: { id: delivered!.id }, data: { status: 'delivered' } });
    await h.prisma.webhookEvent.update({ where: { id: failed!.id }, data: { status: 'failed' } });
    expect(await claim('webhook_events')).toEqual([]);
  });

  it('re-claims a row whose lease lapsed under the same attempt number (the holder died mid-attempt)', async () => {
    const [row] = await dueWebhookRows(1);
    const [first] = await claim('webhook_events');
    expect(await claim('webhook_events')).toEqual([]); // still leased
    h.clock.advance(LEASE_MS + 1);
    const [again] = await claim('webhook_events');
    expect(again).toEqual({ id: row!.id, attempts: first!.attempts, lockedUntil: leaseEnd() });
  });

  it('gives each row to one claimer only when claims run at the same time (SKIP LOCKED)', async () => {
    const rows = await dueWebhookRows(6);
    const rounds = await Promise.all([claim('webhook_events', 4), claim('webhook_events', 4)]);
    const ids = rounds.flat().map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.sort()).toEqual(rows.map((r) => r.id).sort());
  });

  it('claims from the outbox it is given (an ACP order event)', async () => {
    const event = await dueAcpOrderEvent();
    const claimed = await claim('acp_order_events');
    expect(claimed).toContainEqual({ id: event.id, attempts: 1, lockedUntil: leaseEnd() });
  });
});

describe('recordFenced', () => {
  const SET = Prisma.sql`status = 'delivered'::webhook_event_status, last_error = NULL`;

  it("records the holder's outcome and clears the lease", async () => {
    await dueWebhookRows(1);
    const [claimed] = await claim('webhook_events');
    expect(await recordFenced(h.prisma, 'webhook_events', claimed!, SET)).toBe(true);
    expect(await h.prisma.webhookEvent.findUniqueOrThrow({ where: { id: claimed!.id } })).toMatchObject({
      status: 'delivered',
      lockedUntil: null,
    });
  });

  it('refuses the late outcome of a worker whose lease another worker took over, and of a row no longer pending', async () => {
    await dueWebhookRows(1);
    const [stale] = await claim('webhook_events');
    h.clock.advance(LEASE_MS + 1);
    const [current] = await claim('webhook_events');
    expect(await recordFenced(h.prisma, 'webhook_events', stale!, SET)).toBe(false);
    expect(await recordFenced(h.prisma, 'webhook_events', current!, SET)).toBe(true);
    expect(await recordFenced(h.prisma, 'webhook_events', current!, SET)).toBe(false); // delivered now
  });

  it('fences an ACP order event alike', async () => {
    const event = await dueAcpOrderEvent();
    const claimed = (await claim('acp_order_events')).find((c) => c.id === event.id)!;
    const moved = Prisma.sql`status = 'delivered'::webhook_event_status`;
    expect(await recordFenced(h.prisma, 'acp_order_events', { ...claimed, lockedUntil: new Date(0) }, moved)).toBe(
      false,
    );
    expect(await recordFenced(h.prisma, 'acp_order_events', claimed, moved)).toBe(true);
  });
});
