import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import request from 'supertest';
import type { Express } from 'express';
import type { Database, PrismaClient } from '@expedition/db';
import { createTestDatabase } from '@expedition/db/testing';
import {
  type AccountService,
  type OperatorService,
  createAccountService,
  createOperatorService,
  createSecretBox,
} from '@expedition/operators';
import { createRateLimiter } from '@expedition/platform';
import { createTestClock, type TestClock } from '@expedition/platform/testing';
import { PORTAL_THROTTLE_LIMITS, type PortalThrottles } from '../src/accounts/throttles';
import { createApp, type PortalAppDeps } from '../src/app';
import type { Mailer, OutgoingMail } from '../src/mail/mailer';
import { createUiAssets } from '../src/spa/spa.router';
import { buildPortalOpenApi } from '@expedition/contracts/openapi';

export const PORTAL_URL = 'http://portal.test:3004';
export const WIDGET_URL = 'http://widget.test:3003';
export const API = '/api/portal/v1';
export const GOOD_PASSWORD = 'correct-horse-battery-7';

const openApiDocument = buildPortalOpenApi({ serverUrl: PORTAL_URL });

export interface CapturingMailer extends Mailer {
  sent: OutgoingMail[];
  /** The token of the last link of this kind sent to `to`. */
  lastToken(to: string, kind: 'verify-email' | 'reset-password' | 'accept-invite'): string;
}

export function capturingMailer(): CapturingMailer {
  const sent: OutgoingMail[] = [];
  return {
    kind: 'outbox',
    sent,
    async send(mail) {
      sent.push(mail);
    },
    lastToken(to, kind) {
      const pattern = new RegExp(`/${kind}\\?token=([A-Za-z0-9_-]+)`);
      for (let i = sent.length - 1; i >= 0; i--) {
        const match = sent[i]!.to === to ? pattern.exec(sent[i]!.text) : null;
        if (match) return match[1]!;
      }
      throw new Error(`no ${kind} mail to ${to}`);
    },
  };
}

/** Budgets large enough that no suite trips them by accident; throttling suites pass the real ones. */
export function generousThrottles(): PortalThrottles {
  const entries = Object.keys(PORTAL_THROTTLE_LIMITS).map((name) => [
    name,
    createRateLimiter({ points: 100_000, durationSec: 60, keyPrefix: name }),
  ]);
  return Object.fromEntries(entries) as PortalThrottles;
}

export interface PortalHarness {
  app: Express;
  db: Database;
  prisma: PrismaClient;
  clock: TestClock;
  accounts: AccountService;
  operators: OperatorService;
  mailer: CapturingMailer;
  close(): Promise<void>;
}

export interface PortalHarnessOptions {
  throttles?: PortalThrottles;
  deps?: Partial<PortalAppDeps>;
  db?: Database;
  sessionIdleMs?: number;
  sessionAbsoluteMs?: number;
}

/** One isolated database per test file (its own PostgreSQL schema, or PGlite when PostgreSQL is absent). */
export async function createPortalHarness(options: PortalHarnessOptions = {}): Promise<PortalHarness> {
  const db = options.db ?? (await createTestDatabase());
  const clock = createTestClock();
  const secretBox = createSecretBox([{ kid: 'test1', key: Buffer.alloc(32, 7) }]);
  const operators = createOperatorService({ prisma: db.prisma, clock, secretBox });
  const accounts = createAccountService({
    prisma: db.prisma,
    clock,
    sessionIdleMs: options.sessionIdleMs,
    sessionAbsoluteMs: options.sessionAbsoluteMs,
  });
  const mailer = capturingMailer();
  const uiDir = mkdtempSync(path.join(tmpdir(), 'portal-ui-'));
  const app = createApp({
    prisma: db.prisma,
    ready: () => db.ping(),
    clock,
    logger: pino({ level: 'silent' }),
    operators,
    accounts,
    mailer,
    throttles: options.throttles ?? generousThrottles(),
    urls: {
      portal: PORTAL_URL,
      widget: WIDGET_URL,
      embed: 'http://embed.test:3002',
      quoteApi: 'http://quote.test:3001',
    },
    ui: createUiAssets(uiDir),
    openApi: () => openApiDocument,
    ...options.deps,
  });
  return {
    app,
    db,
    prisma: db.prisma,
    clock,
    accounts,
    operators,
    mailer,
    close: () => (options.db ? Promise.resolve() : db.close()),
  };
}

/** The harness of a spec file that registered `usePortalHarness()`: live, set before its tests run. */
export let h: PortalHarness;

/** Registers the file's (or the describe block's) hooks: a portal harness created before its tests, closed after. */
export function usePortalHarness(options?: PortalHarnessOptions): void {
  beforeAll(async () => {
    h = await createPortalHarness(options);
  });
  afterAll(() => h.close());
}

/** A browser of the portal: keeps its cookie jar, sends Origin and (once logged in) the CSRF token. */
export class PortalClient {
  readonly agent: ReturnType<typeof request.agent>;
  csrfToken: string | undefined;

  constructor(app: Express) {
    this.agent = request.agent(app);
  }

  get(url: string) {
    return this.agent.get(url);
  }

  private send(method: 'post' | 'put' | 'patch' | 'delete', url: string, body?: unknown) {
    let req = this.agent[method](url).set('Origin', PORTAL_URL);
    if (this.csrfToken) req = req.set('X-CSRF-Token', this.csrfToken);
    return body === undefined ? req : req.send(body as object);
  }

  post(url: string, body?: unknown) {
    return this.send('post', url, body);
  }
  put(url: string, body?: unknown) {
    return this.send('put', url, body);
  }
  patch(url: string, body?: unknown) {
    return this.send('patch', url, body);
  }
  delete(url: string, body?: unknown) {
    return this.send('delete', url, body);
  }
}

let counter = 0;
export function uniqueEmail(prefix = 'user'): string {
  counter += 1;
  return `${prefix}-${process.pid}-${counter}@example.com`;
}

/**
 * Signs up a new operator through the API; the client is logged in as its owner, whose address is then marked
 * verified (owners must be verified to invite) unless `verified: false`.
 */
export async function signUp(
  h: PortalHarness,
  input: { email?: string; operatorName?: string; password?: string; verified?: boolean } = {},
) {
  const client = new PortalClient(h.app);
  const email = input.email ?? uniqueEmail('owner');
  const res = await client.post(`${API}/auth/signup`, {
    email,
    password: input.password ?? GOOD_PASSWORD,
    operatorName: input.operatorName ?? 'Polar Tours',
  });
  if (res.status !== 201) throw new Error(`sign-up failed: ${res.status} ${JSON.stringify(res.body)}`);
  client.csrfToken = res.body.csrfToken;
  if (input.verified !== false) {
    // As if the mailed link had been opened (the mailer of a suite may be a real outbox).
    await h.prisma.operatorUser.update({
      where: { email: res.body.user.email },
      data: { emailVerifiedAt: h.clock.now() },
    });
  }
  return { client, email, user: res.body.user, operator: res.body.operator as { id: string; name: string } };
}

/** Logs a client in (a fresh client unless one is given). */
export async function logIn(
  h: PortalHarness,
  email: string,
  password = GOOD_PASSWORD,
  client = new PortalClient(h.app),
) {
  const res = await client.post(`${API}/auth/login`, { email, password });
  if (res.status !== 200) throw new Error(`log-in failed: ${res.status} ${JSON.stringify(res.body)}`);
  client.csrfToken = res.body.csrfToken;
  return client;
}

/** A member of the operator of `owner` (invited and accepted through the API). */
export async function addMember(h: PortalHarness, owner: PortalClient, role: 'owner' | 'member' = 'member') {
  const email = uniqueEmail(role);
  const invited = await owner.post(`${API}/team/invites`, { email, role });
  if (invited.status !== 201) throw new Error(`invite failed: ${invited.status} ${JSON.stringify(invited.body)}`);
  const client = new PortalClient(h.app);
  const accepted = await client.post(`${API}/auth/invites/accept`, {
    token: h.mailer.lastToken(email, 'accept-invite'),
    password: GOOD_PASSWORD,
  });
  if (accepted.status !== 201) throw new Error(`accept failed: ${accepted.status} ${JSON.stringify(accepted.body)}`);
  client.csrfToken = accepted.body.csrfToken;
  return { client, email, user: accepted.body.user };
}

/** A provider admin, logged in. */
export async function providerAdmin(h: PortalHarness) {
  const email = uniqueEmail('admin');
  await h.accounts.createProviderAdmin(email, GOOD_PASSWORD);
  const client = await logIn(h, email);
  return { client, email };
}

/** The cookie value `svc_portal_session` a response sets, or undefined. */
export function sessionCookieOf(res: { headers: Record<string, unknown> }): string | undefined {
  const cookies = (res.headers['set-cookie'] as string[] | undefined) ?? [];
  const cookie = cookies.find((c) => c.startsWith('svc_portal_session='));
  return cookie?.split(';')[0]!.slice('svc_portal_session='.length) || undefined;
}
