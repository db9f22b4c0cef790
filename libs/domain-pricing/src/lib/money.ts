import { invalidInput } from './errors';

/**
 * Splits `totalCents` in proportion to `weights` so the parts sum EXACTLY to the total (largest-remainder
 * method, as in dinero.js): every part first gets the floor of its exact share, then the cents left over go one
 * each to the parts with the largest fractional remainders, ties to the lower index. Deterministic, and no part
 * is ever more than 1 cent away from its exact proportional share.
 *
 * Weights must be non-negative safe integers with a positive sum (ratios like [1, 1, 2] or [3333, 6667]);
 * integer arithmetic in BigInt keeps the split exact whatever the sizes.
 */
export function allocateCents(totalCents: number, weights: readonly number[]): number[] {
  assertNonNegativeCents('totalCents', totalCents);
  if (weights.length === 0) throw invalidInput('weights', 'allocateCents needs at least one weight');
  for (const w of weights) {
    if (!Number.isSafeInteger(w) || w < 0) {
      throw invalidInput('weights', 'allocateCents weights must be non-negative safe integers');
    }
  }
  const weightSum = weights.reduce((sum, w) => sum + BigInt(w), 0n);
  if (weightSum === 0n) throw invalidInput('weights', 'allocateCents weights must not all be zero');

  const total = BigInt(totalCents);
  const parts = weights.map((w) => (total * BigInt(w)) / weightSum);
  const remainders = weights.map((w, index) => ({ index, remainder: (total * BigInt(w)) % weightSum }));
  let leftover = total - parts.reduce((sum, p) => sum + p, 0n);

  remainders.sort((a, b) => (a.remainder === b.remainder ? a.index - b.index : a.remainder > b.remainder ? -1 : 1));
  for (const { index } of remainders) {
    if (leftover === 0n) break;
    parts[index] = (parts[index] ?? 0n) + 1n;
    leftover -= 1n;
  }
  return parts.map((p) => Number(p));
}

/** Scale used to write rate factors as exact integers: 1.35 becomes 13_500. */
export const FACTOR_SCALE = 10_000;

/**
 * Converts a documented decimal factor (at most 4 decimal places, e.g. 1.35 or 0.055) into an exact
 * integer in units of 1/10 000, so premium arithmetic never meets binary floating-point error.
 */
export function toScaledFactor(factor: number): bigint {
  const scaled = Math.round(factor * FACTOR_SCALE);
  if (!Number.isSafeInteger(scaled) || scaled < 0) throw invalidInput('factor', `invalid rate factor ${factor}`);
  return BigInt(scaled);
}

/**
 * `amountCents × f1 × f2 × …` with every factor given at FACTOR_SCALE, rounded half-up to the cent
 * (the only rounding in the formula, applied once at the end). Exact: computed in BigInt.
 */
export function applyFactorsHalfUp(amountCents: number, factors: readonly bigint[]): number {
  assertNonNegativeCents('amountCents', amountCents);
  const numerator = factors.reduce((acc, f) => acc * f, BigInt(amountCents));
  const denominator = factors.reduce((acc) => acc * BigInt(FACTOR_SCALE), 1n);
  const rounded = (numerator * 2n + denominator) / (denominator * 2n);
  return toSafeCents(rounded);
}

export function toSafeCents(value: bigint): number {
  const asNumber = Number(value);
  if (!Number.isSafeInteger(asNumber)) throw invalidInput('amount', 'amount exceeds the safe integer range');
  return asNumber;
}

export function assertNonNegativeCents(field: string, cents: number): void {
  if (!Number.isSafeInteger(cents) || cents < 0) {
    throw invalidInput(field, `${field} must be a non-negative safe integer number of cents`);
  }
}

/**
 * A USD amount as sent on the wire (e.g. `12.345` dollars) → integer cents, rounded half-up to the cent.
 * `toPrecision(15)` first removes binary noise (12.345 × 100 is 1234.4999999999998 in floating point), so the
 * result is what a person reading the decimal expects. Throws `invalid_input` for non-finite, negative or
 * unsafe amounts.
 */
export function dollarsToCents(usd: number): number {
  if (!Number.isFinite(usd) || usd < 0) throw invalidInput('amount', 'amount must be a non-negative number of dollars');
  const cents = Math.round(Number((usd * 100).toPrecision(15)));
  if (!Number.isSafeInteger(cents)) throw invalidInput('amount', 'amount exceeds the safe integer range');
  return cents;
}

/** Integer cents → the decimal dollars a wire field in USD carries (`123450` → `1234.5`); the inverse of dollarsToCents. */
export function centsToDollars(cents: number): number {
  return Math.round(cents) / 100;
}
