/**
 * Machine-readable reasons a pricing call can refuse its input. The HTTP layer maps these to statuses;
 * the domain never picks one.
 */
export type PricingErrorCode = 'unknown_destination' | 'invalid_input';

export class PricingError extends Error {
  override readonly name = 'PricingError';

  constructor(
    readonly code: PricingErrorCode,
    message: string,
    /** Which input field was at fault, when one was (e.g. `travelerAges`). */
    readonly field?: string,
  ) {
    super(message);
  }
}

export function invalidInput(field: string, message: string): PricingError {
  return new PricingError('invalid_input', message, field);
}

export function isPricingError(value: unknown): value is PricingError {
  return value instanceof PricingError;
}
