import fc from 'fast-check';
import request from 'supertest';
import { signPayload } from '@expedition/webhook-signature';
import { createHarness, type Harness } from './harness';
import { PROCESSOR_SECRET, intentEvent, registerAsOurs } from './processor-events';
import { countMoneyPath, createOperator, createQuote } from './fixtures';

/**
 * The intake against validly signed but hostile events: whoever holds (or leaks) the signing secret can send any
 * bytes. Whatever arrives, the answer is 200 or 400, never a 5xx; nothing is half-written; a payment we started and
 * that succeeded is never lost (it becomes a policy or a refund).
 */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

/** Signs exactly these bytes, as a holder of the processor secret could. */
function post(raw: string) {
  const header = signPayload(raw, PROCESSOR_SECRET, h.clock.nowSec());
  return request(h.app)
    .post('/processor/events')
    .set('Content-Type', 'application/json')
    .set('Stripe-Signature', header)
    .send(raw);
}

async function paymentOfOurs() {
  const operator = await createOperator(h.prisma);
  const q = await createQuote(h.prisma, h.clock, operator.id);
  const event = intentEvent(
    {
      amountCents: q.premiumCents,
      metadata: { quoteId: q.quote.id, planId: q.planId, operatorId: operator.id, channel: 'embed' },
    },
    h.clock.nowSec(),
  );
  await registerAsOurs(h.prisma, event);
  return { ...q, event };
}

const deep = (depth: number): unknown => (depth === 0 ? 'x' : { a: deep(depth - 1) });

describe('POST /processor/events with validly signed hostile bodies', () => {
  it.each([
    ['an amount of 2^31', (e: Record<string, any>) => void (e.data.object.amount = 2 ** 31)],
    ['a fractional amount', (e: Record<string, any>) => void (e.data.object.amount = 10.5)],
    ['a negative amount', (e: Record<string, any>) => void (e.data.object.amount = -100)],
    ['a NUL in the metadata', (e: Record<string, any>) => void (e.data.object.metadata.note = 'a\u0000b')],
    ['a lone surrogate in the event id', (e: Record<string, any>) => void (e.id = 'evt_\ud800x')],
    ['a NUL in the payment id', (e: Record<string, any>) => void (e.data.object.id = 'pi_\u0000')],
    ['nesting 200 deep', (e: Record<string, any>) => void (e.data.object.metadata = deep(200))],
    ['a 10,000-character event id', (e: Record<string, any>) => void (e.id = `evt_${'x'.repeat(10_000)}`)],
    ['a currency that is not a code', (e: Record<string, any>) => void (e.data.object.currency = 'dollars')],
  ])('answers 400 to %s and writes nothing', async (_name, mutate) => {
    const { event } = await paymentOfOurs();
    mutate(event as unknown as Record<string, any>);
    const before = await countMoneyPath(h.prisma);
    const res = await post(JSON.stringify(event));
    expect(res.status).toBe(400);
    expect(res.body.details[0].message).toBe('malformed_payload');
    expect(await countMoneyPath(h.prisma)).toEqual(before);
  });

  it('never answers 5xx to generated payment events, and never loses a succeeded payment of ours', async () => {
    const ours = await paymentOfOurs();
    const hostileString = fc.oneof(
      fc.string(),
      fc.string({ unit: 'binary' }),
      fc.constantFrom('\u0000', '\ud800', '\udfff', '%', "'; DROP TABLE payments; --", '__proto__', 'constructor'),
    );
    const amount = fc.oneof(fc.integer(), fc.double(), fc.constantFrom(0, 1, 2 ** 31, 2 ** 53, -1, ours.premiumCents));
    const metadata = fc.dictionary(
      fc.oneof(hostileString, fc.constantFrom('quoteId', 'planId', 'challenge_id', 'claimAttempt')),
      fc.oneof(hostileString, fc.constant(ours.quote.id), fc.constant(ours.planId)),
      { maxKeys: 6 },
    );
    const event = fc.record({
      id: fc.oneof(
        fc.constant(undefined),
        hostileString.map((s) => `evt_${s}`),
      ),
      type: fc.constantFrom(
        'payment_intent.succeeded',
        'payment_intent.payment_failed',
        'checkout.session.completed',
        'charge.refunded',
        'x',
      ),
      livemode: fc.oneof(fc.boolean(), fc.constant('yes')),
      object: fc.record({
        id: fc.oneof(hostileString, fc.constant(ours.event.data.object.id)),
        object: fc.constantFrom('payment_intent', 'checkout.session'),
        amount,
        amount_total: amount,
        currency: fc.oneof(hostileString, fc.constantFrom('usd', 'USD', 'eur')),
        payment_status: fc.constantFrom('paid', 'unpaid'),
        metadata: fc.oneof(metadata, fc.constant(null), hostileString),
      }),
    });

    let statuses: Record<number, number> = {};
    await fc.assert(
      fc.asyncProperty(event, async (e) => {
        const body = JSON.stringify({
          id: e.id ?? `evt_${Math.random()}`,
          object: 'event',
          type: e.type,
          livemode: e.livemode,
          created: h.clock.nowSec(),
          data: { object: e.object },
        });
        const res = await post(body);
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        expect([200, 400]).toContain(res.status);
      }),
      { numRuns: 300 },
    );
    console.log(`intake fuzz: 300 signed hostile events, statuses ${JSON.stringify(statuses)}`);

    // Our payment, whatever the fuzz did to it, is a policy or a refund once its real event arrives.
    const res = await post(JSON.stringify(ours.event));
    expect(res.status).toBe(200);
    const payment = await h.prisma.payment.findUniqueOrThrow({
      where: { processorPaymentId: ours.event.data.object.id },
    });
    const policy = await h.prisma.policy.findUnique({ where: { quoteId: ours.quote.id } });
    expect(Boolean(policy) || payment.refundStatus !== null).toBe(true);
    statuses = {};
  });
});
