import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { envVar, optionalVar, resolveUrl } from '@expedition/platform';
import type { PaymentProcessor } from './processor';
import { createSimulatedProcessor } from './simulated/simulated-processor';
import type { SimulatedPaymentStore } from './simulated/simulated-store';
import { createStripeProcessor } from './stripe/stripe-processor';

/** The dispatcher's intake path; its default URL follows DISPATCHER_PORT, else PORT_BASE + 5 (3005). */
export const DISPATCHER_INTAKE_PATH = '/processor/events';
/** Where embedded mode keeps the simulated processor's signing secret (random per installation, mode 0600). */
export const SIMULATED_SECRET_FILE = 'simulated-processor-secret';
const MIN_SIMULATED_SECRET_CHARS = 32;

export interface PaymentsSettings {
  provider: 'simulated' | 'stripe';
  /** Where the simulated processor posts its Stripe-format events (the dispatcher's intake). */
  simulatedWebhookUrl: string;
  /** The first signs; all verify (a list during a rotation). Never a published constant. */
  simulatedWebhookSecrets: string[];
  stripe?: {
    testSecretKey: string;
    liveSecretKey?: string;
    webhookSecrets: string[];
    liveWebhookSecrets?: string[];
    testPublishableKey?: string;
    livePublishableKey?: string;
  };
  /** The simulated processor also simulates live mode (SIMULATED_PROCESSOR_ALLOW_LIVE_MODE; demos and tests only). */
  simulatedAllowLiveMode: boolean;
  /** Said loudly at start (simulated payments outside embedded mode, simulated live mode). */
  warnings: string[];
  /** How often the dispatcher's reconciler looks for unfinished payments (PAYMENTS_RECONCILE_INTERVAL_MS; 60 s). */
  reconcileIntervalMs?: number;
  /** The simulated processor re-sends undelivered events for three days (SIMULATED_PROCESSOR_RESEND_EVENTS; on). */
  simulatedResendEvents?: boolean;
}

/** The reconciler's default period: an unrecorded charge is found within about a minute of its claim's lease. */
export const DEFAULT_RECONCILE_INTERVAL_MS = 60_000;

const SecretList = z
  .string()
  .transform((value) =>
    value
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  )
  .pipe(z.array(z.string()).min(1, 'at least one secret'));

/** The payment variables every app shares (`PAYMENTS_PROVIDER` and friends), validated once, here. */
export const PaymentsEnvSchema = z.object({
  PAYMENTS_PROVIDER: optionalVar(z.enum(['simulated', 'stripe'])).default('simulated'),
  SIMULATED_PROCESSOR_WEBHOOK_URL: optionalVar(z.url()),
  /** Unset SIMULATED_PROCESSOR_WEBHOOK_URL: the dispatcher's intake on localhost (libs/platform service-ports.ts). */
  PORT_BASE: envVar.portBase(),
  DISPATCHER_PORT: envVar.servicePort(),
  SIMULATED_PROCESSOR_WEBHOOK_SECRET: optionalVar(
    SecretList.pipe(
      z.array(
        z
          .string()
          .min(MIN_SIMULATED_SECRET_CHARS, `each secret needs at least ${MIN_SIMULATED_SECRET_CHARS} characters`),
      ),
    ),
  ),
  /** Demos and tests only: the simulated processor takes live-mode payments (with its own live values, never test ones). */
  SIMULATED_PROCESSOR_ALLOW_LIVE_MODE: optionalVar(z.enum(['true', 'false'])).default('false'),
  /** Undelivered events are re-sent with backoff for three days, as Stripe does (off: only the tries right away). */
  SIMULATED_PROCESSOR_RESEND_EVENTS: optionalVar(z.enum(['true', 'false'])).default('true'),
  STRIPE_TEST_SECRET_KEY: optionalVar(z.string()),
  STRIPE_LIVE_SECRET_KEY: optionalVar(z.string()),
  STRIPE_WEBHOOK_SECRET: optionalVar(SecretList),
  STRIPE_LIVE_WEBHOOK_SECRET: optionalVar(SecretList),
  STRIPE_TEST_PUBLISHABLE_KEY: optionalVar(z.string()),
  STRIPE_LIVE_PUBLISHABLE_KEY: optionalVar(z.string()),
  /** `production` refuses the simulated processor outright. */
  NODE_ENV: optionalVar(z.string()),
  /** Set: the app runs deployed (PostgreSQL); unset: embedded (PGlite under DATA_DIR). */
  DATABASE_URL: optionalVar(z.string()),
  DATA_DIR: optionalVar(z.string()).default('.data'),
  PAYMENTS_RECONCILE_INTERVAL_MS: optionalVar(z.coerce.number().int().min(1000).max(3_600_000)),
});

/** A configuration error with one line per problem, each naming its variable. */
export class PaymentsConfigError extends Error {
  override readonly name = 'PaymentsConfigError';
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
  }
}

/**
 * Reads the payment settings every app shares (called from each app's config.ts). The simulated processor signs
 * its events with a secret that is random per installation: from `SIMULATED_PROCESSOR_WEBHOOK_SECRET` when set
 * (required when deployed, i.e. with DATABASE_URL), else generated once into `DATA_DIR/simulated-processor-secret`
 * (embedded mode). With `PAYMENTS_PROVIDER=stripe` no simulated secret exists at all. `NODE_ENV=production` refuses
 * the simulated processor.
 */
export function paymentsSettingsFromEnv(env: Record<string, string | undefined>): PaymentsSettings {
  const parsed = PaymentsEnvSchema.safeParse(env);
  if (!parsed.success) {
    throw new PaymentsConfigError(
      parsed.error.issues.map((issue) => `${String(issue.path[0] ?? 'payments')}: ${issue.message}`),
    );
  }
  const e = parsed.data;
  if (e.PAYMENTS_PROVIDER === 'stripe') {
    if (!e.STRIPE_TEST_SECRET_KEY || !e.STRIPE_WEBHOOK_SECRET) {
      throw new PaymentsConfigError([
        'PAYMENTS_PROVIDER=stripe needs STRIPE_TEST_SECRET_KEY and STRIPE_WEBHOOK_SECRET',
      ]);
    }
    return {
      provider: 'stripe',
      simulatedWebhookUrl:
        e.SIMULATED_PROCESSOR_WEBHOOK_URL ?? `${resolveUrl('dispatcher', e)}${DISPATCHER_INTAKE_PATH}`,
      simulatedWebhookSecrets: [],
      stripe: {
        testSecretKey: e.STRIPE_TEST_SECRET_KEY,
        liveSecretKey: e.STRIPE_LIVE_SECRET_KEY,
        webhookSecrets: e.STRIPE_WEBHOOK_SECRET,
        liveWebhookSecrets: e.STRIPE_LIVE_WEBHOOK_SECRET ?? [],
        testPublishableKey: e.STRIPE_TEST_PUBLISHABLE_KEY,
        livePublishableKey: e.STRIPE_LIVE_PUBLISHABLE_KEY,
      },
      simulatedAllowLiveMode: false,
      warnings: [],
      reconcileIntervalMs: e.PAYMENTS_RECONCILE_INTERVAL_MS ?? DEFAULT_RECONCILE_INTERVAL_MS,
    };
  }
  if (e.NODE_ENV === 'production') {
    throw new PaymentsConfigError([
      'PAYMENTS_PROVIDER: the simulated processor is refused with NODE_ENV=production; set PAYMENTS_PROVIDER=stripe',
    ]);
  }
  const deployed = Boolean(e.DATABASE_URL);
  if (deployed && !e.SIMULATED_PROCESSOR_WEBHOOK_SECRET) {
    throw new PaymentsConfigError([
      'SIMULATED_PROCESSOR_WEBHOOK_SECRET: required with PAYMENTS_PROVIDER=simulated outside embedded mode (the same random value, ≥ 32 characters, for every app)',
    ]);
  }
  const allowLive = e.SIMULATED_PROCESSOR_ALLOW_LIVE_MODE === 'true';
  return {
    provider: 'simulated',
    simulatedWebhookUrl: e.SIMULATED_PROCESSOR_WEBHOOK_URL ?? `${resolveUrl('dispatcher', e)}${DISPATCHER_INTAKE_PATH}`,
    simulatedWebhookSecrets: e.SIMULATED_PROCESSOR_WEBHOOK_SECRET ?? [installationSecret(e.DATA_DIR)],
    simulatedAllowLiveMode: allowLive,
    simulatedResendEvents: e.SIMULATED_PROCESSOR_RESEND_EVENTS === 'true',
    warnings: [
      ...(deployed
        ? [
            'PAYMENTS_PROVIDER=simulated: payments are SIMULATED (no money moves, every policy is a test policy); use PAYMENTS_PROVIDER=stripe for real payments',
          ]
        : []),
      ...(allowLive
        ? [
            'SIMULATED_PROCESSOR_ALLOW_LIVE_MODE=true: the simulated processor issues LIVE policies for simulated money (demos and tests only)',
          ]
        : []),
    ],
    reconcileIntervalMs: e.PAYMENTS_RECONCILE_INTERVAL_MS ?? DEFAULT_RECONCILE_INTERVAL_MS,
  };
}

/** Read or create `DATA_DIR/simulated-processor-secret`: random per installation, readable by its owner only. */
export function installationSecret(dataDir: string): string {
  const file = path.join(dataDir, SIMULATED_SECRET_FILE);
  if (existsSync(file)) {
    const stored = readFileSync(file, 'utf8').trim();
    if (stored.length >= MIN_SIMULATED_SECRET_CHARS) return stored;
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = `whsec_sim_${randomBytes(32).toString('base64url')}`;
  try {
    // `wx`: two processes starting at once agree on the first writer's secret.
    writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
    return secret;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    chmodSync(file, 0o600);
    return readFileSync(file, 'utf8').trim();
  }
}

/** Builds the processor the settings name. Operators' test keys select test mode, live keys live mode (per call). */
export function createPaymentProcessor(
  settings: PaymentsSettings,
  options: {
    clock?: { now(): Date };
    /** The simulated processor's books; give every process the same durable store (createSqlSimulatedPaymentStore). */
    simulatedStore?: SimulatedPaymentStore;
  } = {},
): PaymentProcessor {
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
    allowLiveMode: settings.simulatedAllowLiveMode,
    store: options.simulatedStore,
    delivery: { resend: { enabled: settings.simulatedResendEvents ?? true } },
  });
}
