import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createPaymentProcessor, paymentsSettingsFromEnv, SIMULATED_SECRET_FILE } from './processor-settings';

const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'payments-settings-'));
const SECRET = 'whsec_sim_0123456789abcdef0123456789abcdef';

describe('paymentsSettingsFromEnv', () => {
  it('embedded mode: the simulated processor, posting to the local dispatcher, with a secret random per installation', () => {
    const dataDir = tmp();
    const s = paymentsSettingsFromEnv({ DATA_DIR: dataDir });
    expect(s).toMatchObject({
      provider: 'simulated',
      simulatedWebhookUrl: 'http://localhost:3005/processor/events',
      warnings: [],
    });
    expect(s.simulatedWebhookSecrets).toEqual([readFileSync(path.join(dataDir, SIMULATED_SECRET_FILE), 'utf8').trim()]);
    expect(paymentsSettingsFromEnv({ DATA_DIR: tmp() }).simulatedWebhookSecrets).not.toEqual(s.simulatedWebhookSecrets);
    expect(createPaymentProcessor(s).name).toBe('simulated');
  });

  it('deployed (DATABASE_URL): the simulated secret is required, and the simulated processor is announced loudly', () => {
    expect(() => paymentsSettingsFromEnv({ DATABASE_URL: 'postgresql://db/app' })).toThrow(
      /^SIMULATED_PROCESSOR_WEBHOOK_SECRET: required/,
    );
    const s = paymentsSettingsFromEnv({
      DATABASE_URL: 'postgresql://db/app',
      SIMULATED_PROCESSOR_WEBHOOK_SECRET: SECRET,
    });
    expect(s.simulatedWebhookSecrets).toEqual([SECRET]);
    expect(s.warnings.join()).toMatch(/SIMULATED/);
  });

  it('simulates live mode only when SIMULATED_PROCESSOR_ALLOW_LIVE_MODE=true, and says so loudly', async () => {
    const off = paymentsSettingsFromEnv({ DATA_DIR: tmp() });
    expect(off.simulatedAllowLiveMode).toBe(false);
    const live = {
      amountCents: 100,
      currency: 'usd',
      mode: 'live' as const,
      idempotencyKey: 'k',
      metadata: { quoteId: 'q', planId: 'p', channel: 'mpp' as const },
    };
    await expect(createPaymentProcessor(off).createPayment(live)).rejects.toMatchObject({
      code: 'mode_not_configured',
    });
    const on = paymentsSettingsFromEnv({ DATA_DIR: tmp(), SIMULATED_PROCESSOR_ALLOW_LIVE_MODE: 'true' });
    expect(on.warnings.join()).toMatch(/LIVE policies for simulated money/);
    expect((await createPaymentProcessor(on).createPayment(live)).status).toBe('pending');
    expect(() => paymentsSettingsFromEnv({ SIMULATED_PROCESSOR_ALLOW_LIVE_MODE: 'yes' })).toThrow(
      /SIMULATED_PROCESSOR_ALLOW_LIVE_MODE/,
    );
  });

  it('refuses a short simulated secret and the simulated processor in production', () => {
    expect(() => paymentsSettingsFromEnv({ SIMULATED_PROCESSOR_WEBHOOK_SECRET: 'whsec_short' })).toThrow(
      /SIMULATED_PROCESSOR_WEBHOOK_SECRET: each secret needs at least 32/,
    );
    expect(() =>
      paymentsSettingsFromEnv({ NODE_ENV: 'production', SIMULATED_PROCESSOR_WEBHOOK_SECRET: SECRET }),
    ).toThrow(/refused with NODE_ENV=production/);
  });

  it('builds the Stripe adapter with rotated webhook secrets and no simulated secret, and refuses incomplete Stripe settings', () => {
    const s = paymentsSettingsFromEnv({
      PAYMENTS_PROVIDER: 'stripe',
      STRIPE_TEST_SECRET_KEY: 'sk_test_abc',
      STRIPE_WEBHOOK_SECRET: 'whsec_a, whsec_b',
      NODE_ENV: 'production',
    });
    expect(s.stripe?.webhookSecrets).toEqual(['whsec_a', 'whsec_b']);
    expect(s.simulatedWebhookSecrets).toEqual([]);
    expect(createPaymentProcessor(s).name).toBe('stripe');
    expect(() => paymentsSettingsFromEnv({ PAYMENTS_PROVIDER: 'stripe' })).toThrow(/STRIPE_TEST_SECRET_KEY/);
    expect(() => paymentsSettingsFromEnv({ PAYMENTS_PROVIDER: 'paypal' })).toThrow(/PAYMENTS_PROVIDER/);
  });
});
