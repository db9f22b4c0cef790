import { randomBytes } from 'node:crypto';
import type { PurchaseReceipt, PurchaseRequest } from '@expedition/contracts';
import type { PrismaClient, Purchase } from '@expedition/db';
import { centsToDollars, getPlan } from '@expedition/domain-pricing';
import {
  CONFIRMATION_MAIL,
  policyLinks,
  type FulfillmentOutcome,
  type MoneyPath,
  type PolicyTokens,
} from '@expedition/fulfillment';
import { AppError } from '@expedition/http-kit';
import {
  createChallenge,
  decodeOpaque,
  decodeRequest,
  formatPaymentReceipt,
  isChallengeExpired,
  parseAuthorizationPayment,
  problemDetails,
  verifyChallengeBinding,
  type MppProblemCode,
  type PaymentProcessor,
  type StripeChargeRequest,
} from '@expedition/payments';
import { hashToken, isUuid, type Clock, type Logger } from '@expedition/platform';
import { quoteExpiredError } from '@expedition/quoting';
import { toQuoteApiError } from '../quoting-errors';
import type { MppChallengeRepository } from './mpp-challenge.repository';
import { settleSptInClaim } from './settle-spt';

export interface MppSettings {
  /** Current secret first, then the previous one during a rotation; each ≥ 32 bytes. */
  secrets: string[];
  realm: string;
  networkId: string;
  paymentMethodTypes: string[];
  challengeTtlMs: number;
}

interface PurchaseDeps {
  prisma: PrismaClient;
  clock: Clock;
  processor: Pick<PaymentProcessor, 'settleSharedPaymentToken'>;
  moneyPath: Pick<MoneyPath, 'guard' | 'fulfillment'>;
  challenges: MppChallengeRepository;
  mpp: MppSettings;
  logger: Logger;
  /** quote-api's public URL: the policy's certificate link on the buyer's receipt. */
  publicUrl: string;
  /** Derives the policy's access token for the buyer's receipt (it is never stored). */
  policyTokens: PolicyTokens;
  /** Per-challenge nonce; random by default (injectable for tests). */
  newNonce?: () => string;
}

type IssuedChallenge = ReturnType<typeof createChallenge>;

/** What a purchase attempt came to; the router renders each as HTTP. */
export type PurchaseResult =
  | { kind: 'receipt'; receipt: PurchaseReceipt; paidAt: Date }
  | { kind: 'payment_required'; problem: MppProblemCode; challenge: IssuedChallenge; detail?: string }
  | { kind: 'method_unsupported'; detail: string }
  | { kind: 'in_progress'; retryAfterSec: number }
  | { kind: 'processor_unavailable'; retryAfterSec: number }
  | { kind: 'refunded'; detail: string };

/** The Payment-Receipt value of a paid result: POST /api/v1/purchase's header, the MCP purchase tool's `paymentReceipt`. */
export function paymentReceiptOf(result: Extract<PurchaseResult, { kind: 'receipt' }>): string {
  return formatPaymentReceipt({
    status: 'success',
    method: 'stripe',
    timestamp: result.paidAt,
    reference: result.receipt.paymentReference ?? result.receipt.quoteNumber,
    externalId: result.receipt.quoteId,
  });
}

/** Why payment is (still) required, naming the fresh challenge (RFC 9457): the 402 body, the tool's `problem`. */
export function paymentProblemOf(result: Extract<PurchaseResult, { kind: 'payment_required' }>) {
  return problemDetails(result.problem, { detail: result.detail, challengeId: result.challenge.id });
}

type Settlement =
  | { kind: 'recorded'; paymentId: string; outcome: FulfillmentOutcome }
  | { kind: 'rejected'; problem: MppProblemCode; detail: string }
  | { kind: 'in_doubt' }
  | { kind: 'unavailable' };

/**
 * POST /api/v1/purchase with MPP's "Payment" HTTP authentication (method stripe, intent charge), in the order of
 * the protocol: body and quote → credential → method → binding → expiry → request equality → the quote's payment
 * claim → single-use claim of challenge and token → settlement → purchase. Nothing but the challenge row is written
 * before a payment succeeds, and no other channel can charge the quote while this one holds its claim.
 */
export function createPurchaseService(deps: PurchaseDeps) {
  const { prisma, clock } = deps;
  const newNonce = deps.newNonce ?? (() => randomBytes(16).toString('base64url'));

  async function purchase(body: PurchaseRequest, authorization: string | undefined): Promise<PurchaseResult> {
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
    if (quote.purchase) {
      return receiptOf('already_paid', quote, quote.purchase, { buyer: await paidWith(quote.purchase, authorization) });
    }
    if (quote.expiresAt && quote.expiresAt <= clock.now()) throw toQuoteApiError(quoteExpiredError(quote));

    const expected: StripeChargeRequest = {
      amount: String(estimate.premiumCents),
      currency: estimate.currency.toLowerCase(),
      externalId: quote.id,
      methodDetails: { networkId: deps.mpp.networkId, paymentMethodTypes: deps.mpp.paymentMethodTypes },
    };
    const challenge = (problem: MppProblemCode, detail?: string) =>
      issueChallenge(
        quote.id,
        estimate.planId,
        estimate.premiumCents,
        estimate.currency,
        expected,
        plan?.name ?? estimate.planId,
      ).then((issued): PurchaseResult => ({ kind: 'payment_required', problem, challenge: issued, detail }));

    const parsed = parseAuthorizationPayment(authorization);
    if (!parsed.ok) return challenge(parsed.code);
    const echoed = parsed.credential.challenge;
    if (echoed.method !== 'stripe' || echoed.intent !== 'charge') {
      return { kind: 'method_unsupported', detail: 'Only method "stripe" with intent "charge" is offered' };
    }
    if (!verifyChallengeBinding({ secrets: deps.mpp.secrets, echoed }))
      return challenge('invalid-challenge', 'Unknown or altered challenge');
    if (isChallengeExpired(echoed, clock.now())) return challenge('payment-expired', 'The challenge has expired');
    if (!sameRequest(echoed.request, expected) || opaquePlan(echoed.opaque) !== estimate.planId) {
      return challenge('invalid-challenge', 'The challenge was issued for another price or plan');
    }
    const spt = parsed.credential.payload.spt;
    if (!spt) return challenge('malformed-credential', 'payload.spt is required');

    const guarded = await deps.moneyPath.guard.run(quote.id, 'mpp', async (claim) => {
      const claimed = await deps.challenges.claim(echoed.id, quote.id, spt);
      if (claimed !== 'claimed') {
        const detail =
          claimed === 'token_used' ? 'This payment token was already used' : 'This challenge was already used';
        return { end: 'none', value: { kind: 'rejected', problem: 'invalid-challenge', detail } as Settlement };
      }
      const attempt = await settleSptInClaim(deps, claim, {
        channel: 'mpp',
        quote,
        estimate,
        spt,
        challengeId: echoed.id,
        recordChallengeId: echoed.id,
      });
      const { end, value } = attempt;
      if (value.kind !== 'not_charged') return { end, value };
      const { settled } = value;
      const detail =
        settled.failureMessage ?? `Payment ${settled.status}${settled.failureCode ? ` (${settled.failureCode})` : ''}`;
      return { end, value: { kind: 'rejected', problem: 'verification-failed', detail } as Settlement };
    });

    if (guarded.kind === 'busy') return { kind: 'in_progress', retryAfterSec: guarded.retryAfterSec };
    if (guarded.kind === 'paid') {
      const purchase = await prisma.purchase.findUniqueOrThrow({ where: { quoteId: quote.id } });
      return receiptOf('already_paid', quote, purchase, { buyer: await paidWith(purchase, authorization) });
    }
    const settlement = guarded.value;
    switch (settlement.kind) {
      case 'rejected':
        return challenge(settlement.problem, settlement.detail);
      case 'in_doubt':
        return { kind: 'in_progress', retryAfterSec: 5 };
      case 'unavailable':
        return { kind: 'processor_unavailable', retryAfterSec: 5 };
      case 'recorded':
        return afterRecording(settlement, quote);
    }
  }

  async function afterRecording(
    settlement: Extract<Settlement, { kind: 'recorded' }>,
    quote: { id: string; quoteNumber: string },
  ): Promise<PurchaseResult> {
    const { outcome } = settlement;
    if (outcome.kind === 'policy_issued' || outcome.kind === 'already_recorded')
      return receiptOf('purchased', quote, outcome.purchase, { buyer: true });
    if (outcome.kind === 'refund_pending' && outcome.purchase) {
      // This caller's money did not buy the policy (another channel did): it is no proof of being the buyer.
      return receiptOf('already_paid', quote, outcome.purchase, {
        buyer: false,
        nextSteps:
          'This quote was already paid through another channel; the charge just made is refunded automatically.',
      });
    }
    return { kind: 'refunded', detail: 'The payment could not be turned into a policy; it is refunded automatically.' };
  }

  async function issueChallenge(
    quoteId: string,
    planId: string,
    amountCents: number,
    currency: string,
    request: StripeChargeRequest,
    planName: string,
  ): Promise<IssuedChallenge> {
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
    await deps.challenges.save({
      id: challenge.id,
      quoteId,
      planId,
      amountCents,
      currency,
      realm: challenge.realm,
      request: challenge.request,
      expiresAt,
    });
    return challenge;
  }

  /**
   * Whether this request carries the very credential that paid the quote (a retry of the paying request without its
   * Idempotency-Key, e.g. the MCP tool): our own challenge (HMAC-bound), the one the purchase's payment answered,
   * with the same Shared Payment Token. Knowing the quoteId alone never passes.
   */
  async function paidWith(purchase: Purchase, authorization: string | undefined): Promise<boolean> {
    const parsed = parseAuthorizationPayment(authorization);
    if (!parsed.ok || !purchase.paymentId) return false;
    const { challenge: echoed, payload } = parsed.credential;
    if (!payload.spt || !verifyChallengeBinding({ secrets: deps.mpp.secrets, echoed })) return false;
    const payment = await prisma.payment.findUnique({
      where: { id: purchase.paymentId },
      select: { challengeId: true, challenge: { select: { sptHash: true } } },
    });
    return payment?.challengeId === echoed.id && payment.challenge?.sptHash === hashToken(payload.spt);
  }

  /**
   * The receipt. The policy's access token and certificate link go to the buyer only (see `paidWith` and the router's
   * Idempotency-Key replay); an `already_paid` answer to anyone else names the policy but opens nothing.
   */
  async function receiptOf(
    status: PurchaseReceipt['status'],
    quote: { id: string; quoteNumber: string },
    purchase: Purchase,
    options: { buyer: boolean; nextSteps?: string },
  ): Promise<PurchaseResult> {
    const policy = await prisma.policy.findUnique({
      where: { purchaseId: purchase.id },
      select: { policyNumber: true, mails: { where: { kind: CONFIRMATION_MAIL }, select: { recipient: true } } },
    });
    const mailed = Boolean(policy?.mails[0]?.recipient);
    const accessToken = options.buyer && policy ? deps.policyTokens.tokenFor(policy) : null;
    return {
      kind: 'receipt',
      paidAt: purchase.createdAt,
      receipt: {
        status,
        quoteId: quote.id,
        quoteNumber: quote.quoteNumber,
        planId: purchase.planId,
        // The plan that was bought, which an already_paid answer to a request for another plan must still name.
        planName: getPlan(purchase.planId)?.name ?? purchase.planId,
        amountCharged: centsToDollars(purchase.amountCents),
        amountChargedCents: purchase.amountCents,
        currency: purchase.currency,
        // Only to the request that paid: an already_paid answer (anyone holding the quoteId) names no processor payment.
        ...(status === 'purchased' ? { paymentReference: purchase.processorPaymentId } : {}),
        nextSteps:
          options.nextSteps ??
          (status === 'purchased'
            ? `The policy is issued. ${mailed ? MAILED : `${NOT_MAILED} Give the traveler the policy number and documentUrl.`} Keep the policy number and the accessToken: ` +
              'GET /api/v1/policies/{policyNumber} with it shows the policy, and documentUrl is the certificate (PDF).'
            : `This quote was already paid; no new charge was made. ${mailed ? MAILED : NOT_MAILED}`),
        ...(policy ? { policyNumber: policy.policyNumber } : {}),
        ...(policy && accessToken
          ? { accessToken, documentUrl: policyLinks(deps.publicUrl, { ...policy, accessToken }).documentUrl }
          : {}),
      },
    };
  }

  return { purchase };
}

export type PurchaseService = ReturnType<typeof createPurchaseService>;

/** What the receipt says of the confirmation e-mail: only what the platform does (the quote's address, or none). */
const MAILED = 'A confirmation e-mail with the certificate attached goes to the e-mail address given with the quote.';
const NOT_MAILED = 'No e-mail is sent: the quote carries no e-mail address.';

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
