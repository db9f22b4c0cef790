import { createHash, randomBytes } from 'node:crypto';
import { PurchaseRequestSchema, type PurchaseReceipt } from '@expedition/contracts';
import { isUniqueViolation, type PrismaClient } from '@expedition/db';
import { getPlan } from '@expedition/domain-pricing';
import { AppError, parseOrThrow, type Logger } from '@expedition/http-kit';
import {
  PROBLEM_CONTENT_TYPE,
  PaymentProcessorError,
  createChallenge,
  decodeOpaque,
  decodeRequest,
  formatPaymentReceipt,
  formatWwwAuthenticate,
  isChallengeExpired,
  parseAuthorizationPayment,
  problemDetails,
  verifyChallengeBinding,
  type MppProblemCode,
  type PaymentProcessor,
  type StripeChargeRequest,
} from '@expedition/payments';
import { isUuid, type Clock } from '@expedition/quoting';

/** A payment the processor reported as succeeded, ready to become a purchase (idempotent on paymentId). */
export interface SucceededPayment {
  paymentId: string;
  amountCents: number;
  currency: string;
  mode: 'test' | 'live';
  quoteId: string;
  planId: string;
  operatorId: string | null;
  channel: 'mpp' | 'checkout_link' | 'embed';
  challengeId?: string;
  checkoutSessionId?: string;
}
export type RecordPayment = (payment: SucceededPayment) => Promise<void>;

export interface MppSettings {
  /** Current secret first, then the previous one during a rotation; each ≥ 32 bytes. */
  secrets: string[];
  realm: string;
  networkId: string;
  paymentMethodTypes: string[];
  challengeTtlMs: number;
}

export interface PurchaseDeps {
  prisma: PrismaClient;
  clock: Clock;
  processor: PaymentProcessor;
  recordPayment: RecordPayment;
  mpp: MppSettings;
  logger: Logger;
  /** Per-challenge nonce; random by default (injectable for tests). */
  newNonce?: () => string;
}

export interface Outcome {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** While a settlement for a quote is in flight no other credential may settle it (no double charge). */
const QUOTE_LOCK_SCOPE = 'mpp-quote-lock';
const QUOTE_LOCK_LEASE_MS = 2 * 60 * 1000;
const IDEMPOTENCY_SCOPE = 'purchase';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/**
 * POST /api/v1/purchase with MPP's "Payment" HTTP authentication (method stripe, intent charge), in the order of
 * the protocol notes (A8): body and quote → credential → method → binding → expiry → request equality → atomic
 * claim → settlement → purchase. Nothing but the challenge row is written before a payment succeeds.
 */
export function createPurchaseService(deps: PurchaseDeps) {
  const { prisma, clock } = deps;
  const newNonce = deps.newNonce ?? (() => randomBytes(16).toString('base64url'));

  async function purchase(rawBody: unknown, authorization: string | undefined, idempotencyKey?: string): Promise<Outcome> {
    const body = parseOrThrow(PurchaseRequestSchema, rawBody);
    const bodyHash = sha256(JSON.stringify([body.quoteId, body.planId]));
    if (idempotencyKey) {
      const stored = await prisma.idempotencyRecord.findUnique({
        where: { scope_key: { scope: IDEMPOTENCY_SCOPE, key: idempotencyKey } },
      });
      if (stored) {
        if (stored.bodyHash !== bodyHash) {
          throw new AppError(422 as number, 'invalid_request', 'Idempotency-Key was used with a different request body');
        }
        return { status: stored.statusCode, headers: stored.headers as Record<string, string>, body: stored.body };
      }
    }

    const quote = isUuid(body.quoteId)
      ? await prisma.quote.findUnique({ where: { id: body.quoteId }, include: { estimates: true, purchase: true } })
      : null;
    if (!quote) throw AppError.notFound('quote_not_found', `No quote with id "${body.quoteId}"`);
    const estimate = quote.estimates.find((e) => e.planId === body.planId);
    if (!estimate) {
      throw new AppError(400, 'invalid_plan', `Plan "${body.planId}" is not among this quote's plans`, [
        { path: 'planId', message: `use one of: ${quote.estimates.map((e) => e.planId).join(', ')}` },
      ]);
    }
    const plan = getPlan(estimate.planId);
    if (plan?.availabilityMode === 'inquiry') {
      throw new AppError(400, 'quote_not_purchasable', 'This plan is priced on inquiry and cannot be bought online');
    }
    const planName = plan?.name ?? estimate.planId;

    if (quote.purchase) return remember(idempotencyKey, bodyHash, receipt('already_paid', quote, quote.purchase));
    if (quote.expiresAt && quote.expiresAt <= clock.now()) {
      throw new AppError(410, 'quote_expired', `Quote ${quote.quoteNumber} has expired; create a new quote`);
    }

    const expected: StripeChargeRequest = {
      amount: String(estimate.premiumCents),
      currency: estimate.currency.toLowerCase(),
      externalId: quote.id,
      methodDetails: { networkId: deps.mpp.networkId, paymentMethodTypes: deps.mpp.paymentMethodTypes },
    };
    const challengeFor = () => issueChallenge(quote.id, estimate.planId, estimate.premiumCents, estimate.currency, expected, planName);

    const parsed = parseAuthorizationPayment(authorization);
    if (!parsed.ok) return paymentProblem(parsed.code, await challengeFor());
    const { credential } = parsed;
    const echoed = credential.challenge;
    if (echoed.method !== 'stripe' || echoed.intent !== 'charge') {
      return problemOnly('method-unsupported', 'Only method "stripe" with intent "charge" is offered');
    }
    if (!verifyChallengeBinding({ secrets: deps.mpp.secrets, echoed })) {
      return paymentProblem('invalid-challenge', await challengeFor(), 'Unknown or altered challenge');
    }
    if (isChallengeExpired(echoed, clock.now())) {
      return paymentProblem('payment-expired', await challengeFor(), 'The challenge has expired');
    }
    if (!sameRequest(echoed.request, expected) || opaquePlan(echoed.opaque) !== estimate.planId) {
      return paymentProblem('invalid-challenge', await challengeFor(), 'The challenge was issued for another price or plan');
    }
    const spt = credential.payload.spt;
    if (!spt) return paymentProblem('malformed-credential', await challengeFor(), 'payload.spt is required');

    const claim = await claimChallenge(echoed.id, quote.id, spt);
    if (claim !== 'claimed') {
      return paymentProblem('invalid-challenge', await challengeFor(), claim);
    }
    try {
      const settled = await deps.processor.settleSharedPaymentToken({
        amountCents: estimate.premiumCents,
        currency: estimate.currency.toLowerCase(),
        mode: quote.mode,
        spt,
        challengeId: echoed.id,
        metadata: {
          quoteId: quote.id,
          planId: estimate.planId,
          channel: 'mpp',
          ...(quote.operatorId ? { operatorId: quote.operatorId } : {}),
        },
      });
      if (settled.status !== 'succeeded' || !settled.paymentId) {
        deps.logger.info({ quoteId: quote.id, status: settled.status, code: settled.failureCode }, 'mpp settlement not successful');
        const detail = settled.failureMessage ?? `Payment ${settled.status}${settled.failureCode ? ` (${settled.failureCode})` : ''}`;
        return paymentProblem('verification-failed', await challengeFor(), detail);
      }
      await deps.recordPayment({
        paymentId: settled.paymentId,
        amountCents: estimate.premiumCents,
        currency: estimate.currency,
        mode: quote.mode,
        quoteId: quote.id,
        planId: estimate.planId,
        operatorId: quote.operatorId,
        channel: 'mpp',
        challengeId: echoed.id,
      });
      const purchase = await prisma.purchase.findUniqueOrThrow({ where: { quoteId: quote.id } });
      const status = purchase.processorPaymentId === settled.paymentId ? 'purchased' : 'already_paid';
      return remember(idempotencyKey, bodyHash, receipt(status, quote, purchase));
    } catch (err) {
      if (err instanceof PaymentProcessorError) {
        deps.logger.warn({ quoteId: quote.id, code: err.code }, 'payment processor unavailable');
        return {
          status: 503,
          headers: { 'Retry-After': '5', 'Cache-Control': 'no-store' },
          body: { error: 'The payment processor is unavailable; retry shortly', code: 'internal_error' },
        };
      }
      throw err;
    } finally {
      await releaseQuote(quote.id, echoed.id);
    }
  }

  async function issueChallenge(
    quoteId: string,
    planId: string,
    amountCents: number,
    currency: string,
    request: StripeChargeRequest,
    planName: string,
  ) {
    const expiresAt = new Date(clock.now().getTime() + deps.mpp.challengeTtlMs);
    const challenge = createChallenge({
      secret: deps.mpp.secrets[0]!,
      realm: deps.mpp.realm,
      method: 'stripe',
      intent: 'charge',
      request,
      expiresAt,
      // The id is an HMAC of the parameters: without a nonce, two challenges for the same quote, plan and expiry
      // (the same millisecond) would share an id, collide on the primary key, and a "fresh" challenge after a
      // decline could be the one just used.
      opaque: { planId, nonce: newNonce() },
      description: `Expedition insurance: ${planName}`,
    });
    await prisma.paymentChallenge.create({
      data: {
        id: challenge.id,
        quoteId,
        planId,
        amountCents,
        currency,
        realm: challenge.realm,
        request: challenge.request,
        expiresAt,
      },
    });
    return challenge;
  }

  /**
   * Single use, atomically: the challenge row flips to used only once, the SPT hash is unique, and a lease row per
   * quote keeps two different credentials from settling the same quote at the same time.
   */
  async function claimChallenge(challengeId: string, quoteId: string, spt: string): Promise<'claimed' | string> {
    if (!(await takeQuoteLease(quoteId, challengeId))) return 'Another payment for this quote is in progress';
    try {
      const claimed = await prisma.paymentChallenge.updateMany({
        where: { id: challengeId, quoteId, usedAt: null },
        data: { usedAt: clock.now(), sptHash: sha256(spt) },
      });
      if (claimed.count === 1) return 'claimed';
      await releaseQuote(quoteId, challengeId);
      return 'This challenge was already used';
    } catch (err) {
      await releaseQuote(quoteId, challengeId);
      if (isUniqueViolation(err)) return 'This payment token was already used';
      throw err;
    }
  }

  async function takeQuoteLease(quoteId: string, holder: string): Promise<boolean> {
    const data = { scope: QUOTE_LOCK_SCOPE, key: quoteId, bodyHash: holder, statusCode: 0, headers: {}, body: {}, createdAt: clock.now() };
    try {
      await prisma.idempotencyRecord.create({ data });
      return true;
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
    }
    // A lease older than its lifetime belongs to a crashed request: take it over.
    const stale = await prisma.idempotencyRecord.deleteMany({
      where: { scope: QUOTE_LOCK_SCOPE, key: quoteId, createdAt: { lt: new Date(clock.now().getTime() - QUOTE_LOCK_LEASE_MS) } },
    });
    if (stale.count === 0) return false;
    try {
      await prisma.idempotencyRecord.create({ data });
      return true;
    } catch (err) {
      if (isUniqueViolation(err)) return false;
      throw err;
    }
  }

  /** Only our own lease: after a stale takeover the lease belongs to another request. */
  async function releaseQuote(quoteId: string, holder: string) {
    await prisma.idempotencyRecord.deleteMany({ where: { scope: QUOTE_LOCK_SCOPE, key: quoteId, bodyHash: holder } });
  }

  async function remember(idempotencyKey: string | undefined, bodyHash: string, outcome: Outcome): Promise<Outcome> {
    if (!idempotencyKey) return outcome;
    await prisma.idempotencyRecord
      .create({
        data: {
          scope: IDEMPOTENCY_SCOPE,
          key: idempotencyKey,
          bodyHash,
          statusCode: outcome.status,
          headers: outcome.headers,
          body: outcome.body as object,
          createdAt: clock.now(),
        },
      })
      .catch((err) => {
        if (!isUniqueViolation(err)) throw err;
      });
    return outcome;
  }

  function paymentProblem(code: MppProblemCode, challenge: Awaited<ReturnType<typeof issueChallenge>>, detail?: string): Outcome {
    return {
      status: 402,
      headers: {
        'WWW-Authenticate': formatWwwAuthenticate(challenge),
        'Cache-Control': 'no-store',
        'Content-Type': PROBLEM_CONTENT_TYPE,
      },
      body: problemDetails(code, { detail, challengeId: challenge.id }),
    };
  }

  function problemOnly(code: MppProblemCode, detail: string): Outcome {
    const problem = problemDetails(code, { detail });
    return { status: problem.status, headers: { 'Cache-Control': 'no-store', 'Content-Type': PROBLEM_CONTENT_TYPE }, body: problem };
  }

  return { purchase };
}

export type PurchaseService = ReturnType<typeof createPurchaseService>;

function sameRequest(echoedRequest: string, expected: StripeChargeRequest): boolean {
  try {
    const got = decodeRequest(echoedRequest);
    return (
      got.amount === expected.amount &&
      got.currency === expected.currency &&
      got.externalId === expected.externalId &&
      got.methodDetails?.networkId === expected.methodDetails.networkId
    );
  } catch {
    return false;
  }
}

function opaquePlan(opaque: string | undefined): string | undefined {
  if (!opaque) return undefined;
  try {
    return decodeOpaque(opaque)['planId'];
  } catch {
    return undefined;
  }
}

function receipt(
  status: PurchaseReceipt['status'],
  quote: { id: string; quoteNumber: string },
  purchase: { planId: string; amountCents: number; currency: string; processorPaymentId: string; createdAt: Date },
): Outcome {
  const body: PurchaseReceipt = {
    status,
    quoteId: quote.id,
    quoteNumber: quote.quoteNumber,
    planId: purchase.planId,
    // The plan that was bought, which an already_paid answer to a request for another plan must still name.
    planName: getPlan(purchase.planId)?.name ?? purchase.planId,
    amountCharged: purchase.amountCents / 100,
    amountChargedCents: purchase.amountCents,
    currency: purchase.currency,
    paymentReference: purchase.processorPaymentId,
    nextSteps:
      status === 'purchased'
        ? 'The policy is being issued; the policy documents are emailed to the traveler. Keep the quote number for reference.'
        : 'This quote was already paid; no new charge was made. The policy documents were emailed to the traveler.',
  };
  return {
    status: 200,
    headers: {
      'Payment-Receipt': formatPaymentReceipt({
        status: 'success',
        method: 'stripe',
        timestamp: purchase.createdAt,
        reference: purchase.processorPaymentId,
        externalId: quote.id,
      }),
      'Cache-Control': 'private',
    },
    body,
  };
}
