import { randomInt, randomUUID } from 'node:crypto';
import { QUOTE_NUMBER_ALPHABET } from '@expedition/quoting';

/**
 * Policy numbers read `POL-2026-7KQ4MZ`: the issue year (UTC) and 6 symbols from the quote numbers' unambiguous
 * alphabet (no 0/O, 1/I/L, U): 30^6 ≈ 729 million per year. The unique index decides; the caller retries.
 */
export function randomPolicyNumber(now: Date, pick: (max: number) => number = randomInt): string {
  let suffix = '';
  for (let i = 0; i < 6; i++) suffix += QUOTE_NUMBER_ALPHABET[pick(QUOTE_NUMBER_ALPHABET.length)];
  return `POL-${now.getUTCFullYear()}-${suffix}`;
}

/** Outbox event ids: stable across every delivery attempt; receivers deduplicate on them. */
export function randomWebhookEventId(): string {
  return `evt_${randomUUID()}`;
}
