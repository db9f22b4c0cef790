/** Basis points: 10 000 bps = 100 %. */
export const BPS_PER_UNIT = 10_000;

/**
 * Commission owed to the operator for one policy: premium × rate, rounded DOWN to the cent (the usual convention:
 * a fraction of a cent is never paid out, so rounding always goes in the operator's disfavour, by < 1 cent).
 * Integer arithmetic only, so the result is exact for any safe-integer product.
 */
export function computeCommissionCents(premiumCents: number, rateBps: number): number {
  if (!Number.isSafeInteger(premiumCents) || premiumCents < 0)
    throw new RangeError('premiumCents must be a non-negative safe integer');
  if (!Number.isSafeInteger(rateBps) || rateBps < 0 || rateBps > BPS_PER_UNIT)
    throw new RangeError('rateBps must be an integer in 0..10000');
  const product = premiumCents * rateBps;
  if (!Number.isSafeInteger(product)) throw new RangeError('premiumCents × rateBps exceeds the safe integer range');
  return (product - (product % BPS_PER_UNIT)) / BPS_PER_UNIT;
}
