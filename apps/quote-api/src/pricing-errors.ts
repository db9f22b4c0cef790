import { isPricingError, listDestinations } from '@expedition/domain-pricing';
import { AppError } from '@expedition/http-kit';

/** Domain errors are input problems: turn them into 400s with the documented body. */
export function rethrowPricingError(err: unknown): never {
  if (!isPricingError(err)) throw err;
  if (err.code === 'unknown_destination') {
    throw new AppError(400, 'unknown_destination', err.message, [
      {
        path: 'destination',
        message: `use one of: ${listDestinations()
          .map((d) => d.name)
          .join(', ')}`,
      },
    ]);
  }
  throw AppError.badRequest(err.message, err.field ? [{ path: err.field, message: err.message }] : undefined);
}
