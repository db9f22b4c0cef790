/** Version of the /api/v1 description (SERVICE-SPEC §9.1); see CHANGELOG.md for what each version added. */
export const QUOTE_API_VERSION = '1.0.0';

/** Limits of /api/v1 (SERVICE-SPEC §8 leaves them open; these are ours and stable). */
export const QUOTE_API_LIMITS = {
  requestsPerMinutePerClient: 120,
  maxJsonBodyBytes: 64 * 1024,
} as const;
