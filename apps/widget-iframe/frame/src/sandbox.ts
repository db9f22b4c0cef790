/**
 * Test-mode hint: the sandbox inputs the embed API accepts with TEST keys (documented in apps/embed-api/README.md and
 * apps/widget-iframe/README.md) and the processor's test cards (libs/payments magic-test-values).
 */
// The same values as EMBED_SANDBOX_* in libs/contracts (embed-checkout.schema.ts, a zod module this bundle must not
// import); sandbox.spec.ts keeps them equal.
export const SANDBOX = {
  quoteErrorEmail: 'quote-error@sandbox.test',
  quoteErrorTripCost: 13013,
  optionsPendingEmail: 'options-pending@sandbox.test',
} as const;

export const TEST_CARDS = [
  { number: '4242 4242 4242 4242', outcome: 'succeeds' },
  { number: '4000 0000 0000 0002', outcome: 'is declined' },
  { number: '4000 0025 0000 3155', outcome: 'asks for authentication' },
] as const;
