/**
 * Options polling (docs/contract.md, GET /api/embed/options and Limits): 0.5 s doubling to 5 s between polls, `Retry-After` honoured on 429 (quotes
 * and polls share 60 requests/minute per key, so a widget never spends more than ~15 of them on one quote), a short
 * run of network errors tolerated, and a hard stop after `timeoutMs` → `options_timeout`. Time comes in as
 * dependencies so the logic is tested without waiting.
 */
import type { EmbedOptionsReady } from '@expedition/contracts';
import { EmbedError, type OptionsAnswer } from './api';

export interface PollPolicy {
  initialDelayMs: number;
  maxDelayMs: number;
  timeoutMs: number;
  /** Consecutive network failures tolerated before giving up. */
  maxNetworkErrors: number;
}
export const DEFAULT_POLL_POLICY: PollPolicy = {
  initialDelayMs: 500,
  maxDelayMs: 5000,
  timeoutMs: 60_000,
  maxNetworkErrors: 3,
};

/**
 * The wait after a 429 whose Retry-After the browser could not read: the window is fixed and at most 60 s long, and a
 * request refused with 429 costs nothing more, so trying again every 10 s finds the new window without hammering.
 */
export const UNKNOWN_RETRY_AFTER_SEC = 10;

export const OPTIONS_TIMEOUT_MESSAGE = 'Prices are taking longer than usual. Please try again in a few minutes.';

export function nextDelay(previousMs: number, policy: PollPolicy = DEFAULT_POLL_POLICY): number {
  return Math.min(Math.max(previousMs * 2, policy.initialDelayMs), policy.maxDelayMs);
}

export interface PollDeps {
  fetchOptions: () => Promise<OptionsAnswer>;
  sleep: (ms: number) => Promise<void>;
  now: () => number;
  /** Stops the loop (a new quote, destroy): resolves `undefined`. */
  isCancelled?: () => boolean;
  policy?: PollPolicy;
}

/** Resolves the ready payload, `undefined` when cancelled; rejects with an EmbedError (code `options_timeout` at the deadline). */
export async function pollOptions({
  fetchOptions,
  sleep,
  now,
  isCancelled = () => false,
  policy = DEFAULT_POLL_POLICY,
}: PollDeps): Promise<EmbedOptionsReady | undefined> {
  const deadline = now() + policy.timeoutMs;
  let delay = 0;
  let networkErrors = 0;
  for (;;) {
    if (isCancelled()) return undefined;
    let wait: number;
    try {
      const answer = await fetchOptions();
      if (isCancelled()) return undefined;
      if (!answer.pending) return answer.ready;
      networkErrors = 0;
      delay = nextDelay(delay, policy);
      wait = delay;
    } catch (error) {
      if (!(error instanceof EmbedError)) throw error;
      if (error.code === 'rate_limited') {
        wait = Math.max(1, error.retryAfterSec ?? UNKNOWN_RETRY_AFTER_SEC) * 1000;
      } else if (error.code === 'network' && ++networkErrors <= policy.maxNetworkErrors) {
        delay = nextDelay(delay, policy);
        wait = delay;
      } else {
        throw error;
      }
    }
    if (now() + wait > deadline) throw new EmbedError('options_timeout', OPTIONS_TIMEOUT_MESSAGE);
    await sleep(wait);
  }
}
