import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { signPayload, verifySignature } from '@expedition/webhook-signature';
import { PaymentProcessorError, WebhookSignatureError, type PaymentMetadata } from '../processor';
import type { FetchLike } from './event-delivery';
import { createSimulatedProcessor, type SimulatedProcessorOptions } from './simulated-processor';
import { createInMemorySimulatedPaymentStore } from './simulated-store';

const SECRET = 'whsec_sim_test_secret';
const START = new Date('2026-05-01T10:00:00Z');
const META: PaymentMetadata = { quoteId: 'q_1', planId: 'plan_std', channel: 'checkout_link', operatorId: undefined };

interface Posted {
  url: string;
  headers: Record<string, string>;
  body: string;
}

function setup(overrides: Partial<SimulatedProcessorOptions> = {}) {
  let nowMs = START.getTime();
  let seq = 0;
  const posted: Posted[] = [];
  const fetch: FetchLike = async (url, init) => {
    posted.push({ url, headers: init.headers, body: init.body });
    return { status: 200 };
  };
  const processor = createSimulatedProcessor({
    webhookUrl: 'http://dispatcher.test/webhooks/processor',
    webhookSecret: SECRET,
    clock: { now: () => new Date(nowMs) },
    ids: () => `id${++seq}`,
    fetch,
    delivery: { sleep: async () => undefined },
    ...overrides,
  });
  const events = () => posted.map((p) => JSON.parse(p.body));
  return { processor, posted, events, advance: (ms: number) => (nowMs += ms) };
}

const create = (p: ReturnType<typeof setup>['processor'], key = 'idem_1') =>
  p.createPayment({ amountCents: 12345, currency: 'USD', mode: 'test', idempotencyKey: key, metadata: META });

describe('simulated processor: payment intents and magic cards', () => {
  it('creates a pending intent with a pi_sim_ id and a client secret, idempotently', async () => {
    const { processor, posted } = setup();
    const first = await create(processor);
    expect(first).toEqual({ paymentId: 'pi_sim_id1', clientSecret: 'pi_sim_id1_secret_id2', status: 'pending' });
    expect(await create(processor)).toEqual(first);
    expect((await create(processor, 'idem_2')).paymentId).not.toBe(first.paymentId);
    expect(posted).toHaveLength(0);
  });

  it('refuses an idempotency key reused with other parameters', async () => {
    const { processor } = setup();
    await create(processor);
    await expect(
      processor.createPayment({
        amountCents: 1,
        currency: 'usd',
        mode: 'test',
        idempotencyKey: 'idem_1',
        metadata: META,
      }),
    ).rejects.toMatchObject({ code: 'idempotency_error' });
  });

  it('rejects non-integer or non-positive amounts', async () => {
    const { processor } = setup();
    const bad = (amountCents: number) =>
      processor.createPayment({
        amountCents,
        currency: 'usd',
        mode: 'test',
        idempotencyKey: `k${amountCents}`,
        metadata: META,
      });
    await expect(bad(12.5)).rejects.toBeInstanceOf(PaymentProcessorError);
    await expect(bad(0)).rejects.toMatchObject({ code: 'invalid_request' });
  });

  it('succeeds with 4242… and posts a signed payment_intent.succeeded event to the intake', async () => {
    const { processor, posted, events } = setup();
    const { paymentId } = await create(processor);
    const result = await processor.confirmPayment({ paymentId, mode: 'test', paymentMethod: '4242 4242 4242 4242' });

    expect(result).toEqual({ paymentId, status: 'succeeded' });
    expect(posted).toHaveLength(1);
    expect(posted[0]!.url).toBe('http://dispatcher.test/webhooks/processor');
    expect(posted[0]!.headers['content-type']).toBe('application/json');
    const [event] = events();
    expect(event).toMatchObject({
      id: 'evt_sim_id3',
      object: 'event',
      type: 'payment_intent.succeeded',
      livemode: false,
      created: START.getTime() / 1000,
      data: {
        object: {
          id: paymentId,
          object: 'payment_intent',
          amount: 12345,
          currency: 'usd',
          status: 'succeeded',
          metadata: { quoteId: 'q_1', planId: 'plan_std', channel: 'checkout_link' },
          last_payment_error: null,
        },
      },
    });
    expect(event.data.object.client_secret).toBeUndefined();
    expect(event.data.object.metadata).not.toHaveProperty('operatorId');
  });

  it('signs events in Stripe’s scheme: our verifier and stripe.webhooks.constructEvent both accept them', async () => {
    const { processor, posted } = setup();
    const { paymentId } = await create(processor);
    await processor.confirmPayment({ paymentId, mode: 'test', paymentMethod: '4242424242424242' });
    const { body, headers } = posted[0]!;
    const nowSec = START.getTime() / 1000;
    expect(verifySignature({ rawBody: body, header: headers['stripe-signature'], secrets: SECRET, nowSec })).toEqual({
      ok: true,
      timestamp: nowSec,
    });
    const event = Stripe.webhooks.constructEvent(
      body,
      headers['stripe-signature']!,
      SECRET,
      300,
      undefined,
      START.getTime(),
    );
    expect(event.type).toBe('payment_intent.succeeded');
  });

  it.each([
    ['4000000000000002', 'card_declined', 'generic_decline'],
    ['4000000000009995', 'card_declined', 'insufficient_funds'],
    ['4000000000000119', 'processing_error', undefined],
    ['pm_card_chargeDeclined', 'card_declined', 'generic_decline'],
  ])('declines %s with %s/%s and posts payment_intent.payment_failed', async (card, code, declineCode) => {
    const { processor, events } = setup();
    const { paymentId } = await create(processor);
    const result = await processor.confirmPayment({ paymentId, mode: 'test', paymentMethod: card });
    expect(result).toMatchObject({
      paymentId,
      status: 'failed',
      failureCode: code,
      failureMessage: expect.any(String),
    });
    expect(result.declineCode).toBe(declineCode);
    const [event] = events();
    expect(event.type).toBe('payment_intent.payment_failed');
    expect(event.data.object.status).toBe('requires_payment_method');
    expect(event.data.object.last_payment_error).toMatchObject({ type: 'card_error', code });
  });

  it('declines a card that is not a test card', async () => {
    const { processor } = setup();
    const { paymentId } = await create(processor);
    expect(
      await processor.confirmPayment({ paymentId, mode: 'test', paymentMethod: '4111111111111112' }),
    ).toMatchObject({
      status: 'failed',
      failureCode: 'card_declined',
    });
  });

  it('allows another card after a decline, but no confirmation after success', async () => {
    const { processor, events } = setup();
    const { paymentId } = await create(processor);
    await processor.confirmPayment({ paymentId, mode: 'test', paymentMethod: '4000000000000002' });
    const retry = await processor.confirmPayment({ paymentId, mode: 'test', paymentMethod: '4242424242424242' });
    expect(retry.status).toBe('succeeded');
    await expect(
      processor.confirmPayment({ paymentId, mode: 'test', paymentMethod: '4242424242424242' }),
    ).rejects.toMatchObject({ code: 'payment_intent_unexpected_state' });
    expect(events().map((e) => e.type)).toEqual(['payment_intent.payment_failed', 'payment_intent.succeeded']);
  });

  it('holds 4000002500003155 in requires_action without an event until the 3-D Secure answer', async () => {
    const { processor, events } = setup();
    const { paymentId } = await create(processor);
    expect(await processor.confirmPayment({ paymentId, mode: 'test', paymentMethod: '4000002500003155' })).toEqual({
      paymentId,
      status: 'requires_action',
    });
    expect(events()).toHaveLength(0);
    expect((await processor.completeAction({ paymentId, mode: 'test', approve: true })).status).toBe('succeeded');
    expect(events().map((e) => e.type)).toEqual(['payment_intent.succeeded']);
  });

  it('fails a rejected 3-D Secure challenge', async () => {
    const { processor, events } = setup();
    const { paymentId } = await create(processor);
    await processor.confirmPayment({ paymentId, mode: 'test', paymentMethod: '4000002500003155' });
    const result = await processor.completeAction({ paymentId, mode: 'test', approve: false });
    expect(result).toMatchObject({ status: 'failed', failureCode: 'payment_intent_authentication_failure' });
    expect(events()[0].type).toBe('payment_intent.payment_failed');
  });

  it('refuses every live-mode call unless live mode is allowed (mode_not_configured): test money cannot pay live', async () => {
    const { processor, posted } = setup();
    const live = { amountCents: 12345, currency: 'USD', mode: 'live' as const, metadata: META };
    await expect(processor.createPayment({ ...live, idempotencyKey: 'l1' })).rejects.toMatchObject({
      code: 'mode_not_configured',
    });
    await expect(
      processor.settleSharedPaymentToken({
        ...live,
        spt: 'spt_test_success_1',
        challengeId: 'ch_l',
        idempotencyKey: 'l2',
      }),
    ).rejects.toMatchObject({ code: 'mode_not_configured' });
    await expect(processor.retrievePayment({ paymentId: 'pi_sim_x', mode: 'live' })).rejects.toMatchObject({
      code: 'mode_not_configured',
    });
    expect(posted).toHaveLength(0);
  });

  it('allowed, live mode takes only simulated live money: test tokens and test cards never pay', async () => {
    const { processor, events } = setup({ allowLiveMode: true });
    const live = { amountCents: 12345, currency: 'USD', mode: 'live' as const, metadata: META };
    const settle = (spt: string, key: string) =>
      processor.settleSharedPaymentToken({ ...live, spt, challengeId: `ch_${key}`, idempotencyKey: key });
    expect(await settle('spt_test_success_1', 'l1')).toMatchObject({
      paymentId: null,
      status: 'failed',
      failureCode: 'shared_payment_granted_token_invalid',
    });
    expect(await settle('spt_live_decline_1', 'l2')).toMatchObject({
      status: 'failed',
      declineCode: 'generic_decline',
    });
    expect(await settle('spt_live_success_1', 'l3')).toMatchObject({ status: 'succeeded' });

    const { paymentId } = await processor.createPayment({ ...live, idempotencyKey: 'l4' });
    expect(
      await processor.confirmPayment({ paymentId, mode: 'live', paymentMethod: '4242424242424242' }),
    ).toMatchObject({
      status: 'failed',
      declineCode: 'live_mode_test_card',
    });
    expect(await processor.confirmPayment({ paymentId, mode: 'live', paymentMethod: 'pm_card_visa' })).toMatchObject({
      declineCode: 'live_mode_test_card',
    });
    expect(await processor.confirmPayment({ paymentId, mode: 'live', paymentMethod: 'pm_live_visa' })).toMatchObject({
      status: 'succeeded',
    });
    expect(
      events()
        .filter((e) => e.type === 'payment_intent.succeeded')
        .map((e) => e.livemode),
    ).toEqual([true, true]);
  });

  it('does not find unknown ids, nor test intents through live mode', async () => {
    const { processor } = setup({ allowLiveMode: true });
    const { paymentId } = await create(processor);
    await expect(
      processor.confirmPayment({ paymentId: 'pi_sim_nope', mode: 'test', paymentMethod: '4242424242424242' }),
    ).rejects.toMatchObject({ code: 'payment_not_found' });
    await expect(
      processor.confirmPayment({ paymentId, mode: 'live', paymentMethod: '4242424242424242' }),
    ).rejects.toMatchObject({ code: 'payment_not_found' });
  });
});

describe('simulated processor: Shared Payment Tokens', () => {
  const settle = (p: ReturnType<typeof setup>['processor'], spt: string, challengeId = 'ch_1') =>
    p.settleSharedPaymentToken({
      amountCents: 5000,
      currency: 'usd',
      mode: 'test',
      spt,
      challengeId,
      idempotencyKey: `mpp_${challengeId}_${spt}`,
      metadata: { ...META, channel: 'mpp' },
    });

  it('settles spt_test_success… and reports it with the challenge id in metadata', async () => {
    const { processor, events } = setup();
    const result = await settle(processor, 'spt_test_success_1');
    expect(result).toEqual({ paymentId: expect.stringMatching(/^pi_sim_/), status: 'succeeded', replayed: false });
    expect(events()[0].data.object).toMatchObject({
      id: result.paymentId,
      amount: 5000,
      metadata: { challenge_id: 'ch_1', channel: 'mpp' },
    });
  });

  it('replays the same challenge + SPT without a second charge or event', async () => {
    const { processor, events } = setup();
    const first = await settle(processor, 'spt_test_abc');
    const again = await settle(processor, 'spt_test_abc');
    expect(again).toEqual({ paymentId: first.paymentId, status: 'succeeded', replayed: true });
    expect(events()).toHaveLength(1);
  });

  it('lets exactly one of two concurrent identical settlements charge', async () => {
    const { processor, events } = setup();
    const results = await Promise.all([settle(processor, 'spt_test_par'), settle(processor, 'spt_test_par')]);
    expect(results.filter((r) => !r.replayed)).toHaveLength(1);
    expect(new Set(results.map((r) => r.paymentId)).size).toBe(1);
    expect(events()).toHaveLength(1);
  });

  it('refuses an SPT already spent under another challenge', async () => {
    const { processor, events } = setup();
    await settle(processor, 'spt_test_once', 'ch_1');
    const second = await settle(processor, 'spt_test_once', 'ch_2');
    expect(second).toMatchObject({
      status: 'failed',
      replayed: false,
      failureCode: 'shared_payment_granted_token_used',
    });
    expect(events()).toHaveLength(1);
  });

  it.each([
    ['spt_test_decline_1', 'card_declined', 'generic_decline'],
    ['spt_test_insufficient_1', 'card_declined', 'insufficient_funds'],
  ])('declines %s', async (spt, code, declineCode) => {
    const { processor, events } = setup();
    const result = await settle(processor, spt);
    expect(result).toMatchObject({ status: 'failed', replayed: false, failureCode: code, declineCode });
    expect(result.paymentId).toMatch(/^pi_sim_/);
    expect(events()[0].type).toBe('payment_intent.payment_failed');
  });

  it('returns requires_action for spt_test_requires_action…', async () => {
    const { processor, events } = setup();
    expect((await settle(processor, 'spt_test_requires_action_1')).status).toBe('requires_action');
    expect(events()).toHaveLength(0);
  });

  it('rejects a token that is not a test SPT without creating a payment', async () => {
    const { processor, events } = setup();
    expect(await settle(processor, 'spt_live_real')).toMatchObject({
      paymentId: null,
      status: 'failed',
      failureCode: 'shared_payment_granted_token_invalid',
    });
    expect(events()).toHaveLength(0);
  });
});

describe('simulated processor: event delivery', () => {
  it('retries network failures with doubling backoff, re-signing each attempt', async () => {
    const delays: number[] = [];
    const attempts: Posted[] = [];
    let clockMs = START.getTime();
    const fetch: FetchLike = async (url, init) => {
      attempts.push({ url, headers: init.headers, body: init.body });
      clockMs += 5000;
      if (attempts.length < 3) throw new Error('ECONNREFUSED');
      return { status: 204 };
    };
    const results: unknown[] = [];
    const { processor } = setup({
      fetch,
      clock: { now: () => new Date(clockMs) },
      delivery: { backoffMs: 100, sleep: async (ms) => void delays.push(ms), onResult: (r) => results.push(r) },
    });
    const { paymentId } = await create(processor);
    await processor.confirmPayment({ paymentId, mode: 'test', paymentMethod: '4242424242424242' });

    expect(delays).toEqual([100, 200]);
    expect(attempts).toHaveLength(3);
    expect(new Set(attempts.map((a) => a.headers['stripe-signature'])).size).toBe(3);
    expect(new Set(attempts.map((a) => a.body)).size).toBe(1);
    expect(results).toEqual([
      { eventId: expect.stringMatching(/^evt_sim_/), delivered: true, attempts: 3, status: 204 },
    ]);
  });

  it('gives up after maxAttempts on 5xx, and does not retry a 4xx', async () => {
    const statuses = [503, 503, 503, 400];
    let calls = 0;
    const fetch: FetchLike = async () => ({ status: statuses[calls++] ?? 500 });
    const { processor } = setup({
      fetch,
      delivery: { maxAttempts: 3, sleep: async () => undefined, awaitDelivery: true },
    });
    const a = await create(processor, 'a');
    await processor.confirmPayment({ paymentId: a.paymentId, mode: 'test', paymentMethod: '4242424242424242' });
    expect(calls).toBe(3);
    const b = await create(processor, 'b');
    await processor.confirmPayment({ paymentId: b.paymentId, mode: 'test', paymentMethod: '4242424242424242' });
    expect(calls).toBe(4);
    expect(await processor.idle()).toEqual([
      expect.objectContaining({ delivered: false, attempts: 3, status: 503 }),
      expect.objectContaining({ delivered: false, attempts: 1, status: 400 }),
    ]);
  });

  it('in background mode returns before delivery; idle() waits for it', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const posted: string[] = [];
    const fetch: FetchLike = async (_url, init) => {
      await gate;
      posted.push(init.body);
      return { status: 200 };
    };
    const { processor } = setup({ fetch, delivery: { awaitDelivery: false } });
    const { paymentId } = await create(processor);
    await processor.confirmPayment({ paymentId, mode: 'test', paymentMethod: '4242424242424242' });
    expect(posted).toHaveLength(0);
    release();
    expect(await processor.idle()).toEqual([expect.objectContaining({ delivered: true })]);
    expect(posted).toHaveLength(1);
  });

  it('POSTs over real HTTP with the default fetch, and parseWebhookEvent reads what arrived', async () => {
    const received: { body: string; signature?: string }[] = [];
    const server: Server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({
          body: Buffer.concat(chunks).toString('utf8'),
          signature: req.headers['stripe-signature'] as string,
        });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as AddressInfo).port;
      const processor = createSimulatedProcessor({
        webhookUrl: `http://127.0.0.1:${port}/intake`,
        webhookSecret: SECRET,
      });
      const { paymentId } = await create(processor);
      await processor.confirmPayment({ paymentId, mode: 'test', paymentMethod: '4000000000009995' });
      expect(received).toHaveLength(1);
      const event = processor.parseWebhookEvent(Buffer.from(received[0]!.body), received[0]!.signature);
      expect(event).toMatchObject({
        type: 'payment.failed',
        sourceType: 'payment_intent.payment_failed',
        mode: 'test',
        paymentId,
        amountCents: 12345,
        currency: 'usd',
        metadata: { quoteId: 'q_1', planId: 'plan_std', channel: 'checkout_link' },
        failureCode: 'card_declined',
        declineCode: 'insufficient_funds',
      });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('simulated processor: parseWebhookEvent', () => {
  async function deliveredEvent() {
    const ctx = setup();
    const { paymentId } = await create(ctx.processor);
    await ctx.processor.confirmPayment({ paymentId, mode: 'test', paymentMethod: '4242424242424242' });
    return { ...ctx, paymentId, body: ctx.posted[0]!.body, header: ctx.posted[0]!.headers['stripe-signature'] };
  }

  it('normalizes a verified event', async () => {
    const { processor, body, header, paymentId } = await deliveredEvent();
    expect(processor.parseWebhookEvent(body, header)).toMatchObject({
      type: 'payment.succeeded',
      paymentId,
      id: 'evt_sim_id3',
    });
  });

  type Mutation = (body: string, header: string) => [string, string | undefined];
  it.each<[string, Mutation]>([
    ['signature_mismatch', (b, h) => [b.replace('12345', '1'), h]],
    ['missing_header', (b) => [b, undefined]],
    ['no_v1', (b, h) => [b, h.replace('v1=', 'v0=')]],
  ])('throws WebhookSignatureError(%s)', async (reason, mutate) => {
    const { processor, body, header } = await deliveredEvent();
    const [b, h] = mutate(body, header!);
    expect(() => processor.parseWebhookEvent(b, h)).toThrow(
      new WebhookSignatureError(reason as WebhookSignatureError['reason']),
    );
    try {
      processor.parseWebhookEvent(b, h);
    } catch (error) {
      expect((error as WebhookSignatureError).reason).toBe(reason);
    }
  });

  it('rejects an event replayed after the tolerance window', async () => {
    const { processor, body, header, advance } = await deliveredEvent();
    advance(301_000);
    expect(() => processor.parseWebhookEvent(body, header)).toThrow(
      expect.objectContaining({ reason: 'timestamp_out_of_tolerance' }),
    );
  });

  it('rejects a correctly signed body that is not JSON', () => {
    const { processor } = setup();
    const body = 'not json';
    expect(() => processor.parseWebhookEvent(body, signPayload(body, SECRET, START.getTime() / 1000))).toThrow(
      expect.objectContaining({ reason: 'malformed_payload' }),
    );
  });
});

describe('simulated processor: shared store (several processes)', () => {
  it('lets a second processor instance confirm an intent created by the first', async () => {
    const store = createInMemorySimulatedPaymentStore();
    const quoteApi = setup({ store });
    const embedApi = setup({ store, ids: () => `other${Math.random().toString(36).slice(2)}` });
    const { paymentId } = await create(quoteApi.processor);
    expect(
      (await embedApi.processor.confirmPayment({ paymentId, mode: 'test', paymentMethod: '4242424242424242' })).status,
    ).toBe('succeeded');
    await expect(create(embedApi.processor)).resolves.toMatchObject({ paymentId });
  });
});

describe('simulated processor: retrieve and refund', () => {
  it('retrieves a declined intent as failed with its own failure code, decline code and message', async () => {
    const { processor } = setup();
    const { paymentId } = await create(processor);
    await processor.confirmPayment({ paymentId, mode: 'test', paymentMethod: '4000000000009995' });
    expect(await processor.retrievePayment({ paymentId, mode: 'test' })).toMatchObject({
      status: 'failed',
      failureCode: 'card_declined',
      declineCode: 'insufficient_funds',
      failureMessage: 'Your card has insufficient funds.',
    });
  });

  it('tells what became of a payment, then refunds it once per idempotency key', async () => {
    const { processor } = setup();
    const { paymentId } = await create(processor);
    expect(await processor.retrievePayment({ paymentId, mode: 'test' })).toMatchObject({
      status: 'pending',
      amountRefundedCents: 0,
    });
    await expect(
      processor.refundPayment({ paymentId, mode: 'test', reason: 'duplicate', idempotencyKey: 'r1' }),
    ).rejects.toMatchObject({ code: 'invalid_request' });

    await processor.confirmPayment({ paymentId, mode: 'test', paymentMethod: '4242424242424242' });
    expect(await processor.retrievePayment({ paymentId, mode: 'test' })).toMatchObject({
      status: 'succeeded',
      amountCents: 12345,
      metadata: { quoteId: 'q_1' },
    });

    const refund = await processor.refundPayment({
      paymentId,
      mode: 'test',
      reason: 'duplicate',
      idempotencyKey: 'r1',
    });
    expect(refund).toEqual({ refundId: expect.stringMatching(/^re_sim_/), status: 'succeeded', amountCents: 12345 });
    // The same key is the same refund (a retry after a crash); another key finds nothing left to refund.
    expect(
      await processor.refundPayment({ paymentId, mode: 'test', reason: 'duplicate', idempotencyKey: 'r1' }),
    ).toEqual(refund);
    await expect(
      processor.refundPayment({ paymentId, mode: 'test', reason: 'duplicate', idempotencyKey: 'r2' }),
    ).rejects.toMatchObject({ code: 'invalid_request' });
    expect(await processor.retrievePayment({ paymentId, mode: 'test' })).toMatchObject({ amountRefundedCents: 12345 });
  });

  it('refuses to settle one idempotency key with another token (a crash-and-retry never charges twice)', async () => {
    const store = createInMemorySimulatedPaymentStore();
    const { processor } = setup({ store });
    const input = {
      amountCents: 5000,
      currency: 'usd',
      mode: 'test' as const,
      challengeId: 'ch_1',
      idempotencyKey: 'mpp_q_1_a1',
      metadata: { ...META, channel: 'mpp' as const },
    };
    expect((await processor.settleSharedPaymentToken({ ...input, spt: 'spt_test_success_a' })).status).toBe(
      'succeeded',
    );
    await expect(
      processor.settleSharedPaymentToken({ ...input, challengeId: 'ch_2', spt: 'spt_test_success_b' }),
    ).rejects.toMatchObject({ code: 'idempotency_error' });
    expect(store.all().filter((r) => r.intent.status === 'succeeded')).toHaveLength(1);
  });
});
