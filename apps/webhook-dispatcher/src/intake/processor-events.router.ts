import express, { Router } from 'express';
import { AppError } from '@expedition/http-kit';
import { inSpan, type Metrics } from '@expedition/observability';
import { WebhookSignatureError, type ProcessorEvent } from '@expedition/payments';
import type { ProcessorEventSource } from '../processor';
import type { Fulfillment } from '@expedition/fulfillment';

export const PROCESSOR_EVENT_BODY_LIMIT = '1mb';
/** PROCESSOR_EVENT_BODY_LIMIT in bytes, as the raw parser reads it (bytes.parse: 1mb = 1,048,576). */
export const PROCESSOR_EVENT_BODY_LIMIT_BYTES = 1024 * 1024;

/** The intake path, plus aliases: a Stripe endpoint's conventional name and the payments README's example URL. */
export const PROCESSOR_EVENT_PATHS = ['/processor/events', '/stripe/webhook', '/webhooks/processor'];

export interface IntakeDeps {
  processor: ProcessorEventSource;
  fulfillment: Pick<Fulfillment, 'recordProcessorEvent'>;
  metrics?: Pick<Metrics, 'paymentOutcome' | 'fulfillment'>;
}

/** What the intake answers for every recorded outcome (refused and ignored events included). */
export type IntakeAnswer = { received: true } | { received: true; duplicate: true };

/**
 * The intake's work on the raw bytes, shared by the Express route below and the path that answers before Express
 * (intake-before-express.ts): check the signature and parse, then record. A bad or stale signature is an AppError 400
 * before anything is written.
 */
export function createIntake(deps: IntakeDeps) {
  function parse(rawBody: Buffer, signature: string | undefined): ProcessorEvent {
    try {
      return deps.processor.parseWebhookEvent(rawBody, signature);
    } catch (err) {
      if (!(err instanceof WebhookSignatureError)) throw err;
      throw new AppError(400, 'invalid_request', 'Webhook signature verification failed', [
        { path: 'Stripe-Signature', message: err.reason },
      ]);
    }
  }

  // 200 for every recorded outcome (refused and ignored events included): the processor retrying cannot help.
  // The payment's metadata carries the buyer's traceparent (see the simulated processor): fulfillment joins that trace.
  async function record(event: ProcessorEvent): Promise<IntakeAnswer> {
    const paymentEvent = event.type === 'other' ? undefined : event;
    const outcome = await inSpan(
      `processor.event ${event.sourceType}`,
      {
        kind: 'consumer',
        parent: paymentEvent?.metadata['traceparent'],
        attributes: { 'processor.event_id': event.id },
      },
      () => deps.fulfillment.recordProcessorEvent(event),
    );
    if (paymentEvent && outcome.kind !== 'duplicate') {
      const succeeded = paymentEvent.type === 'payment.succeeded';
      deps.metrics?.paymentOutcome(
        paymentEvent.metadata['channel'],
        succeeded ? 'succeeded' : 'failed',
        paymentEvent.mode,
      );
      if (succeeded && outcome.kind !== 'payment_failed') deps.metrics?.fulfillment(outcome.kind, paymentEvent.mode);
    }
    return outcome.kind === 'duplicate' ? { received: true, duplicate: true } : { received: true };
  }

  return { parse, record };
}

export type Intake = ReturnType<typeof createIntake>;

/**
 * `POST /processor/events` (aliases above). The body stays raw bytes: the signature covers exactly what
 * was sent, so nothing may parse it first. Most events are answered before Express (intake-before-express.ts); this
 * route takes the rest (a chunked or compressed body, no Content-Type, traced requests) with the same answers.
 */
export function processorEventsRouter(intake: Intake): Router {
  const router = Router();
  router.post(
    PROCESSOR_EVENT_PATHS,
    express.raw({ type: '*/*', limit: PROCESSOR_EVENT_BODY_LIMIT }),
    async (req, res) => {
      const rawBody = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const event = intake.parse(rawBody, req.get('stripe-signature'));
      res.json(await intake.record(event));
    },
  );
  return router;
}
