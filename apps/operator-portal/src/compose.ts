import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Express } from 'express';
import type Redis from 'ioredis';
import type { Database } from '@expedition/db';
import {
  type AccountService,
  type OperatorService,
  type SecretBox,
  createAccountService,
  createOperatorService,
  createSecretBox,
  resolveWebhookSecretKeys,
} from '@expedition/operators';
import { systemClock, type Clock, type Logger } from '@expedition/platform';
import type { Observability } from '@expedition/observability';
import { createPortalThrottles } from './accounts/throttles';
import { createApp } from './app';
import type { PortalConfig } from './config';
import { buildPortalOpenApi } from '@expedition/contracts/openapi';
import { createOutboxMailer, createSmtpMailer, type Mailer } from '@expedition/mail';
import { createUiAssets } from './spa/spa.router';

export interface PortalRuntime {
  config: PortalConfig;
  db: Database;
  logger: Logger;
  /** Shared throttling counters across replicas. */
  redis?: Redis;
  clock?: Clock;
  /** The launcher passes the one secret box of the process; default: from WEBHOOK_SECRET_KEYS / DATA_DIR. */
  secretBox?: SecretBox;
  /** Tests and the launcher may pass their own mailer. */
  mailer?: Mailer;
  /** Metrics and tracing of this process (main.ts / the launcher); absent: none. */
  observability?: Observability;
}

export interface Portal {
  app: Express;
  accounts: AccountService;
  operators: OperatorService;
  mailer: Mailer;
  /** Embedded mode: where mails go (DATA_DIR/outbox); undefined with SMTP. */
  outboxDir?: string;
  /** Where the UI bundle is read from. */
  uiDir: string;
}

/** dist/browser/portal-ui: next to main.js in a build (`portal-ui/`), else the workspace's dist. */
export function defaultUiDir(): string {
  const candidates = [
    path.join(__dirname, 'portal-ui'),
    path.resolve(__dirname, '../../../dist/browser/portal-ui'),
    path.resolve(process.cwd(), 'dist/browser/portal-ui'),
  ];
  const [beside, workspace] = candidates as [string, string, string];
  return (
    candidates.find((dir) => existsSync(path.join(dir, 'manifest.json'))) ?? (existsSync(beside) ? beside : workspace)
  );
}

/** Wires config and shared resources into the portal app. Used by main.ts and the launcher. */
export function composePortal(runtime: PortalRuntime): Portal {
  const { config, db, logger } = runtime;
  // database_up at scrape time (once per registry: the launcher composes every app on one).
  runtime.observability?.metrics?.watchDatabase(() => db.ping());
  const clock = runtime.clock ?? systemClock;
  const secretBox =
    runtime.secretBox ??
    createSecretBox(
      resolveWebhookSecretKeys({
        configured: config.webhookSecretKeys,
        embedded: config.embedded,
        dataDir: config.dataDir,
      }),
    );
  const operators = createOperatorService({
    prisma: db.prisma,
    clock,
    secretBox,
    allowPrivateWebhookUrls: config.allowPrivateWebhookUrls,
  });
  const accounts = createAccountService({
    prisma: db.prisma,
    clock,
    sessionIdleMs: config.sessionIdleMs,
    sessionAbsoluteMs: config.sessionAbsoluteMs,
  });
  const outbox =
    !config.smtpUrl && !config.production
      ? createOutboxMailer({ dir: config.outboxDir, from: config.mailFrom, clock, logger })
      : undefined;
  const mailer =
    runtime.mailer ?? (config.smtpUrl ? createSmtpMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom }) : outbox);
  // loadConfig refuses production without SMTP_URL, so one of the two exists.
  if (!mailer) throw new Error('no mailer: set SMTP_URL');
  const uiDir = config.uiDir ?? defaultUiDir();
  let openApi: unknown;
  const app = createApp({
    prisma: db.prisma,
    ready: () => db.ping(),
    clock,
    logger,
    operators,
    accounts,
    mailer,
    throttles: createPortalThrottles({ redis: runtime.redis, logger }),
    urls: config.urls,
    ui: createUiAssets(uiDir),
    outbox:
      !config.production && outbox
        ? {
            list: () => outbox.list(),
            html: (id) => outbox.html(id),
            attachment: (id, n) => outbox.attachment(id, n),
            dir: config.outboxDir,
          }
        : undefined,
    openApi: () => (openApi ??= buildPortalOpenApi({ serverUrl: config.urls.portal })),
    trustProxy: config.trustProxy,
    observability: runtime.observability,
  });
  return { app, accounts, operators, mailer, outboxDir: outbox ? config.outboxDir : undefined, uiDir };
}
