import express, { Router } from 'express';
import { AppError } from '@expedition/http-kit';
import { inSpan, type Metrics } from '@expedition/observability';
import { WebhookSignatureError } from '@expedition/payments';
import type { ProcessorEventSource } from '../processor';
import type { Fulfillment } from '@expedition/fulfillment';

export const PROCESSOR_EVENT_BODY_LIMIT = '1mb';

/** The intake path, plus aliases: a Stripe endpoint's conventional name and the payments README's example URL. */
export const PROCESSOR_EVENT_PATHS = ['/processor/events', '/stripe/webhook', '/webhooks/processor'];

/**
 * `POST /processor/events` (aliases above). The body stays raw bytes: the signature covers exactly what
 * was sent, so nothing may parse it first. A bad or stale signature is a 400 before anything is written.
 */
export function processorEventsRouter(deps: {
  processor: ProcessorEventSource;
  fulfillment: Pick<Fulfillment, 'recordProcessorEvent'>;
  metrics?: Pick<Metrics, 'paymentOutcome' | 'fulfillment'>;
}): Router {
  const router = Router();
  router.post(
    PROCESSOR_EVENT_PATHS,
    express.raw({ type: '*/*', limit: PROCESSOR_EVENT_BODY_LIMIT }),
    async (req, res) => {
      const rawBody = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      let event;
      try {
        event = deps.processor.parseWebhookEvent(rawBody, req.get('stripe-signature'));
      } catch (err) {
        if (!(err instanceof WebhookSignatureError)) throw err;
        throw new AppError(400, 'invalid_request', 'Webhook signature verification failed', [
          { path: 'Stripe-Signature', message: err.reason },
        ]);
      }
      // 200 for every recorded outcome (refused and ignored events included): the processor retrying cannot help.
      // The payment's metadata carries the buyer's traceparent (see the simulated processor): fulfillment joins that trace.
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
      res.json({ received: true, ...(outcome.kind === 'duplicate' ? { duplicate: true } : {}) });
    },
  );
  return router;
}
