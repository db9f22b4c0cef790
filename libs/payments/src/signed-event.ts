import { findUnstorableJson } from '@expedition/contracts';
import { verifySignature } from '@expedition/webhook-signature';
import { WebhookSignatureError, type ProcessorEvent } from './processor';
import { normalizeStripeEvent } from './stripe-format';

export interface ParseSignedEventOptions {
  secrets: readonly string[];
  toleranceSec?: number;
  nowSec?: number;
}

/** Verify first, parse second: nothing in an unauthenticated body is trusted, not even its JSON shape. */
export function parseSignedStripeEvent(
  rawBody: string | Buffer,
  header: string | undefined,
  options: ParseSignedEventOptions,
): ProcessorEvent {
  const verdict = verifySignature({
    rawBody,
    header,
    secrets: options.secrets,
    toleranceSec: options.toleranceSec,
    nowSec: options.nowSec,
  });
  if (!verdict.ok) throw new WebhookSignatureError(verdict.reason);

  let parsed: unknown;
  try {
    parsed = JSON.parse(typeof rawBody === 'string' ? rawBody : rawBody.toString('utf8'));
  } catch {
    throw new WebhookSignatureError('malformed_payload');
  }
  // Signed is not the same as storable: a NUL, an unpaired surrogate or absurd nesting would make PostgreSQL refuse
  // the row (a 500 and a retry storm). Stripe never sends such bodies; refuse them as malformed.
  if (findUnstorableJson(parsed)) throw new WebhookSignatureError('malformed_payload');
  const event = normalizeStripeEvent(parsed);
  if (!event) throw new WebhookSignatureError('malformed_payload');
  return event;
}

export function toSecretList(secrets: string | readonly string[] | undefined): string[] {
  if (secrets === undefined) return [];
  return typeof secrets === 'string' ? [secrets] : [...secrets];
}
