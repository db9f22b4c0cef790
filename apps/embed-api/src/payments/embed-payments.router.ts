import type { IRouter, Request, RequestHandler, Response } from 'express';
import type { z } from 'zod';
import {
  EMBED_INVALID_FIELDS_ERROR,
  EMBED_PAYMENT_CONFIRM_USE_STRIPE,
  EMBED_PAYMENT_TIER_REQUIRED,
  EmbedPaymentAuthenticateRequestSchema,
  EmbedPaymentConfirmRequestSchema,
  EmbedPaymentStartRequestSchema,
} from '@expedition/contracts';
import { getEmbedContext, sendBareForbidden } from '@expedition/auth-publishable-key';
import { jsonBodyOr400, sendEmbedError } from '../http/embed-responses';
import { EMBED_PAYMENTS_AUTHENTICATE_PATH, EMBED_PAYMENTS_CONFIRM_PATH, EMBED_PAYMENTS_PATH } from '../limits';
import type { EmbedPaymentService, Payer, PaymentOutcome } from './embed-payment.service';

/**
 * Tier 3 payment routes (additive to the embed routes of docs/contract.md; README "Tier 3 payments"). Each runs its own
 * instance of the embed gate (key → Origin → the shared per-key limiter), then parses the body, exactly like POST
 * /api/embed/quote. The confirm and authenticate routes exist for the simulated processor only: with Stripe the iframe
 * confirms with Stripe.js and these answer 400.
 */
export function addEmbedPaymentRoutes(
  app: IRouter,
  deps: { gate: RequestHandler; payments: EmbedPaymentService },
): void {
  const simulatedOnly = deps.payments.provider === 'simulated';
  // Tier 3 only: an operator the provider has not raised to tier 3 gets a 400 `{ error }` (with CORS) on every route.
  const tier3: RequestHandler = (req, res, next) =>
    getEmbedContext(req).integrationTier < 3 ? sendEmbedError(res, EMBED_PAYMENT_TIER_REQUIRED) : next();

  app.post(EMBED_PAYMENTS_PATH, deps.gate, tier3, jsonBodyOr400(), async (req, res) => {
    const body = parse(EmbedPaymentStartRequestSchema, req, res);
    if (body) send(res, await deps.payments.start(body, payerOf(req)));
  });

  app.post(EMBED_PAYMENTS_CONFIRM_PATH, deps.gate, tier3, jsonBodyOr400(), async (req, res) => {
    if (!simulatedOnly) return sendEmbedError(res, EMBED_PAYMENT_CONFIRM_USE_STRIPE);
    const body = parse(EmbedPaymentConfirmRequestSchema, req, res);
    if (body) send(res, await deps.payments.confirm(body, payerOf(req)));
  });

  app.post(EMBED_PAYMENTS_AUTHENTICATE_PATH, deps.gate, tier3, jsonBodyOr400(), async (req, res) => {
    if (!simulatedOnly) return sendEmbedError(res, EMBED_PAYMENT_CONFIRM_USE_STRIPE);
    const body = parse(EmbedPaymentAuthenticateRequestSchema, req, res);
    if (body) send(res, await deps.payments.authenticate(body, payerOf(req)));
  });
}

function payerOf(req: Request): Payer {
  const { operatorId, mode, keyId } = getEmbedContext(req);
  return { operatorId, mode, keyId };
}

function parse<T extends z.ZodType>(schema: T, req: Request, res: Response): z.infer<T> | null {
  const parsed = schema.safeParse(req.body);
  if (parsed.success) return parsed.data;
  sendEmbedError(res, EMBED_INVALID_FIELDS_ERROR);
  return null;
}

function send<T>(res: Response, outcome: PaymentOutcome<T>): void {
  if (outcome.kind === 'forbidden') return sendBareForbidden(res);
  if (outcome.kind === 'refused') {
    res.status(outcome.status).json({ error: outcome.error });
    return;
  }
  res.json(outcome.body);
}
