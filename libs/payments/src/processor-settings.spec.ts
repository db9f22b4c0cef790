import { createPaymentProcessor, paymentsSettingsFromEnv, DEV_SIMULATED_WEBHOOK_SECRET } from './processor-settings';

describe('paymentsSettingsFromEnv', () => {
  it('defaults to the simulated processor posting to the local dispatcher', () => {
    const s = paymentsSettingsFromEnv({});
    expect(s).toMatchObject({
      provider: 'simulated',
      simulatedWebhookUrl: 'http://localhost:3005/processor/events',
      simulatedWebhookSecrets: [DEV_SIMULATED_WEBHOOK_SECRET],
    });
    expect(createPaymentProcessor(s).name).toBe('simulated');
  });

  it('builds the Stripe adapter with rotated webhook secrets, and refuses incomplete Stripe settings', () => {
    const s = paymentsSettingsFromEnv({
      PAYMENTS_PROVIDER: 'stripe',
      STRIPE_TEST_SECRET_KEY: 'sk_test_abc',
      STRIPE_WEBHOOK_SECRET: 'whsec_a, whsec_b',
    });
    expect(s.stripe?.webhookSecrets).toEqual(['whsec_a', 'whsec_b']);
    expect(createPaymentProcessor(s).name).toBe('stripe');
    expect(() => paymentsSettingsFromEnv({ PAYMENTS_PROVIDER: 'stripe' })).toThrow(/STRIPE_TEST_SECRET_KEY/);
    expect(() => paymentsSettingsFromEnv({ PAYMENTS_PROVIDER: 'paypal' })).toThrow(/PAYMENTS_PROVIDER/);
  });
});
