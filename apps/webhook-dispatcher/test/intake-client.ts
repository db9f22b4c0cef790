import request from 'supertest';
import { createHarness, type Harness } from './harness';
import { intentEvent, registerAsOurs, signEvent, type IntentEventInput } from './processor-events';
import { createOperator, createQuote } from './fixtures';

/**
 * An intake spec's database and app, made before its tests and closed after them (`ready` hands them to the spec),
 * and how it talks to the intake: a signed processor event posted as the processor does, an event at the harness
 * clock, an operator's priced quote with the payment metadata a channel sets.
 */
export function intakeHarness(ready: (made: Harness) => void) {
  let made: Harness;
  beforeAll(async () => {
    made = await createHarness();
    ready(made);
  });
  afterAll(() => made.close());
  const harness = () => made;

  async function post(
    event: object,
    options: { timestampSec?: number; secret?: string; path?: string; ours?: boolean } = {},
  ) {
    const h = harness();
    // The intake trusts only payments we started: by default the test plays the app that started this one.
    if (options.ours !== false) await registerAsOurs(h.prisma, event);
    const signed = signEvent(event, options.timestampSec ?? h.clock.nowSec(), options.secret);
    return request(h.app)
      .post(options.path ?? '/processor/events')
      .set('Content-Type', 'application/json')
      .set('Stripe-Signature', signed.header)
      .send(signed.body);
  }

  const event = (input: IntentEventInput) => intentEvent(input, harness().clock.nowSec());

  async function operatorQuote(fields: Parameters<typeof createOperator>[1] = {}) {
    const h = harness();
    const operator = await createOperator(h.prisma, fields);
    const q = await createQuote(h.prisma, h.clock, operator.id);
    const metadata = { quoteId: q.quote.id, planId: q.planId, operatorId: operator.id, channel: 'embed' };
    return { operator, ...q, metadata };
  }

  return { post, event, operatorQuote };
}
