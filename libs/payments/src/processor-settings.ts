import type { PaymentProcessor } from './processor';
import { createSimulatedProcessor } from './simulated/simulated-processor';
import { createStripeProcessor } from './stripe/stripe-processor';

/**
 * The simulated processor signs its events with this secret unless told otherwise. It is not a secret: simulated
 * mode moves no money and exists for `npm start`, tests and operators' integration work.
 */
export const DEV_SIMULATED_WEBHOOK_SECRET = 'whsec_expedition_simulated_dev_only_not_a_secret';
export const DEFAULT_DISPATCHER_INTAKE_URL = 'http://localhost:3005/processor/events';

export interface PaymentsSettings {
  provider: 'simulated' | 'stripe';
  /** Where the simulated processor posts its Stripe-format events (the dispatcher's intake). */
  simulatedWebhookUrl: string;
  /** The first signs; all verify (a list during a rotation). */
  simulatedWebhookSecrets: string[];
  stripe?: {
    testSecretKey: string;
    liveSecretKey?: string;
    webhookSecrets: string[];
    liveWebhookSecrets?: string[];
    testPublishableKey?: string;
    livePublishableKey?: string;
  };
}

const list = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/**
 * Reads the payment settings every app shares from its environment (called from each app's config.ts):
 * `PAYMENTS_PROVIDER` (simulated | stripe), `SIMULATED_PROCESSOR_WEBHOOK_URL`, `SIMULATED_PROCESSOR_WEBHOOK_SECRET`,
 * `STRIPE_TEST_SECRET_KEY`, `STRIPE_LIVE_SECRET_KEY`, `STRIPE_WEBHOOK_SECRET`, `STRIPE_LIVE_WEBHOOK_SECRET`,
 * `STRIPE_TEST_PUBLISHABLE_KEY`, `STRIPE_LIVE_PUBLISHABLE_KEY`. Secrets may be comma-separated lists during a
 * rotation (the first one signs).
 */
export function paymentsSettingsFromEnv(env: Record<string, string | undefined>): PaymentsSettings {
  const provider = (env['PAYMENTS_PROVIDER'] || 'simulated').trim();
  if (provider !== 'simulated' && provider !== 'stripe') {
    throw new Error(`PAYMENTS_PROVIDER must be "simulated" or "stripe", not "${provider}"`);
  }
  const settings: PaymentsSettings = {
    provider,
    simulatedWebhookUrl: env['SIMULATED_PROCESSOR_WEBHOOK_URL'] || DEFAULT_DISPATCHER_INTAKE_URL,
    simulatedWebhookSecrets: list(env['SIMULATED_PROCESSOR_WEBHOOK_SECRET'] || DEV_SIMULATED_WEBHOOK_SECRET),
  };
  if (provider === 'stripe') {
    const testSecretKey = env['STRIPE_TEST_SECRET_KEY'];
    const webhookSecrets = list(env['STRIPE_WEBHOOK_SECRET']);
    if (!testSecretKey || webhookSecrets.length === 0) {
      throw new Error('PAYMENTS_PROVIDER=stripe needs STRIPE_TEST_SECRET_KEY and STRIPE_WEBHOOK_SECRET');
    }
    settings.stripe = {
      testSecretKey,
      liveSecretKey: env['STRIPE_LIVE_SECRET_KEY'] || undefined,
      webhookSecrets,
      liveWebhookSecrets: list(env['STRIPE_LIVE_WEBHOOK_SECRET']),
      testPublishableKey: env['STRIPE_TEST_PUBLISHABLE_KEY'] || undefined,
      livePublishableKey: env['STRIPE_LIVE_PUBLISHABLE_KEY'] || undefined,
    };
  }
  return settings;
}

/** Builds the processor the settings name. Operators' test keys select test mode, live keys live mode (per call). */
export function createPaymentProcessor(settings: PaymentsSettings, options: { clock?: { now(): Date } } = {}): PaymentProcessor {
  if (settings.provider === 'stripe' && settings.stripe) {
    return createStripeProcessor({
      testSecretKey: settings.stripe.testSecretKey,
      liveSecretKey: settings.stripe.liveSecretKey,
      webhookSecrets: settings.stripe.webhookSecrets,
      liveWebhookSecrets: settings.stripe.liveWebhookSecrets,
      clock: options.clock,
    });
  }
  return createSimulatedProcessor({
    webhookUrl: settings.simulatedWebhookUrl,
    webhookSecret: settings.simulatedWebhookSecrets,
    clock: options.clock,
  });
}
