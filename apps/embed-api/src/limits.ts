/**
 * docs/contract.md, Limits: one budget per publishable key, shared by both embed routes. Not configurable: it is
 * contract.
 */
export const EMBED_RATE_LIMIT = { points: 60, durationSec: 60, keyPrefix: 'embed-rl' } as const;

/** A quote body is a handful of short fields; 16 KiB leaves ample room and keeps parsing cheap. */
export const EMBED_MAX_BODY_BYTES = 16 * 1024;

export const EMBED_QUOTE_PATH = '/api/embed/quote';
export const EMBED_OPTIONS_PATH = '/api/embed/options';
/** Tier 3 (in-iframe checkout): additive routes behind the same gate and budget. */
export const EMBED_PAYMENTS_PATH = '/api/embed/payments';
export const EMBED_PAYMENTS_CONFIRM_PATH = '/api/embed/payments/confirm';
export const EMBED_PAYMENTS_AUTHENTICATE_PATH = '/api/embed/payments/authenticate';
/** Tier 2: the hosted checkout link for the key's own quote (additive, same gate and budget). */
export const EMBED_CHECKOUT_PATH = '/api/embed/checkout';
