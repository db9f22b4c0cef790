import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { signPayload } from '@expedition/webhook-signature';
import { WebhookSignatureError } from '../processor';
import type { FetchLike } from './event-delivery';
import { createSimulatedProcessor } from './simulated-processor';
import { SECRET, START, type Posted, setup, create } from './simulated-test-harness';

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
