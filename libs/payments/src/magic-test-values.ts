/**
 * Magic test cards, payment methods and Shared Payment Tokens understood by the simulated processor and the
 * offline fake Stripe server. Card numbers and `pm_card_*` ids are Stripe's own test values
 * (https://docs.stripe.com/testing), so a flow tested here behaves the same against Stripe test mode.
 */
import { TEST_CARDS, type Mode } from '@expedition/contracts/rules';

export type TestOutcome =
  | { kind: 'succeed' }
  | { kind: 'requires_action' }
  | { kind: 'decline'; code: string; declineCode?: string; message: string };

const DECLINED: TestOutcome = {
  kind: 'decline',
  code: 'card_declined',
  declineCode: 'generic_decline',
  message: 'Your card was declined.',
};
const INSUFFICIENT: TestOutcome = {
  kind: 'decline',
  code: 'card_declined',
  declineCode: 'insufficient_funds',
  message: 'Your card has insufficient funds.',
};
const PROCESSING_ERROR: TestOutcome = {
  kind: 'decline',
  code: 'processing_error',
  message: 'An error occurred while processing your card. Try again in a little bit.',
};
const SUCCEED: TestOutcome = { kind: 'succeed' };
const ACTION: TestOutcome = { kind: 'requires_action' };

/** The card numbers are public sandbox inputs (the iframe and the checkout page list them): contracts' rules own them. */
export { TEST_CARDS };

const CARD_OUTCOMES: Record<string, TestOutcome> = {
  [TEST_CARDS.success]: SUCCEED,
  '5555555555554444': SUCCEED,
  [TEST_CARDS.decline]: DECLINED,
  [TEST_CARDS.insufficientFunds]: INSUFFICIENT,
  [TEST_CARDS.processingError]: PROCESSING_ERROR,
  [TEST_CARDS.requiresAction]: ACTION,
};

const PAYMENT_METHOD_OUTCOMES: Record<string, TestOutcome> = {
  pm_card_visa: SUCCEED,
  pm_card_mastercard: SUCCEED,
  pm_card_chargeDeclined: DECLINED,
  pm_card_chargeDeclinedInsufficientFunds: INSUFFICIENT,
  pm_card_chargeDeclinedProcessingError: PROCESSING_ERROR,
  pm_card_authenticationRequired: ACTION,
};

/** Card number (spaces and dashes allowed) or `pm_card_*` id; undefined when it is not a magic value. */
export function outcomeForPaymentMethod(paymentMethod: string): TestOutcome | undefined {
  const digits = paymentMethod.replace(/[\s-]/g, '');
  return CARD_OUTCOMES[digits] ?? PAYMENT_METHOD_OUTCOMES[paymentMethod.trim()];
}

export const TEST_SPT_PREFIXES = {
  success: 'spt_test_success',
  decline: 'spt_test_decline',
  insufficientFunds: 'spt_test_insufficient',
  requiresAction: 'spt_test_requires_action',
  anyTest: 'spt_test_',
} as const;

/** Specific prefixes first; any other `spt_test_…` succeeds; anything else is not a test token. */
export function outcomeForSpt(spt: string): TestOutcome | undefined {
  if (spt.startsWith(TEST_SPT_PREFIXES.decline)) return DECLINED;
  if (spt.startsWith(TEST_SPT_PREFIXES.insufficientFunds)) return INSUFFICIENT;
  if (spt.startsWith(TEST_SPT_PREFIXES.requiresAction)) return ACTION;
  if (spt.startsWith(TEST_SPT_PREFIXES.anyTest)) return SUCCEED;
  return undefined;
}

/**
 * Live mode never takes test money. As at Stripe, a test-mode Shared Payment Token does not exist in live mode, and a
 * test card is declined there. The simulator's own live values (only where live simulation is switched on, for demos
 * and tests) stand in for real money: `spt_live_…` and `pm_live_…` behave like their `spt_test_…` / `pm_card_…` twins.
 */
export const SIMULATED_LIVE_PREFIXES = { spt: 'spt_live_', paymentMethod: 'pm_live_' } as const;

export const LIVE_MODE_TEST_CARD: TestOutcome = {
  kind: 'decline',
  code: 'card_declined',
  declineCode: 'live_mode_test_card',
  message: 'Your card was declined. Your request was in live mode, but used a known test card.',
};

export function outcomeForSptIn(mode: Mode, spt: string): TestOutcome | undefined {
  if (mode === 'test') return outcomeForSpt(spt);
  const { spt: live } = SIMULATED_LIVE_PREFIXES;
  return spt.startsWith(live) ? outcomeForSpt(`${TEST_SPT_PREFIXES.anyTest}${spt.slice(live.length)}`) : undefined;
}

export function outcomeForPaymentMethodIn(mode: Mode, paymentMethod: string): TestOutcome | undefined {
  if (mode === 'test') return outcomeForPaymentMethod(paymentMethod);
  const { paymentMethod: live } = SIMULATED_LIVE_PREFIXES;
  if (paymentMethod.startsWith(live)) return outcomeForPaymentMethod(`pm_card_${paymentMethod.slice(live.length)}`);
  return outcomeForPaymentMethod(paymentMethod) ? LIVE_MODE_TEST_CARD : undefined;
}
