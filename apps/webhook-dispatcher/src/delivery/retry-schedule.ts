import { WEBHOOK_MAX_ATTEMPTS } from '@expedition/contracts';

export { WEBHOOK_MAX_ATTEMPTS };

/**
 * When to try again after a failed attempt, or null when that was the last one. `retryDelaysMs[i]` is the pause
 * after failed attempt i+1; a list shorter than needed repeats its last entry. Default: 30 s, then 5 min, so the
 * third and final attempt happens about 5.5 minutes after the first.
 */
export function nextAttemptAt(
  failedAttempt: number,
  now: Date,
  retryDelaysMs: readonly number[],
  maxAttempts: number = WEBHOOK_MAX_ATTEMPTS,
): Date | null {
  if (failedAttempt >= maxAttempts) return null;
  const delay = retryDelaysMs[Math.min(failedAttempt, retryDelaysMs.length) - 1] ?? 0;
  return new Date(now.getTime() + delay);
}
