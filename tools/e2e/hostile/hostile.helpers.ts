/**
 * Helpers of the hostile suite (tools/e2e/hostile/*.e2e.spec.ts): an attacker's HTTP client for the operator portal
 * (its own cookie jar and, with TRUST_PROXY=loopback, its own client address through X-Forwarded-For), the dev
 * outbox, and the provider admin's session. Everything goes over real HTTP to the running launcher.
 */
import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { createDatabase } from '@expedition/db';
import { testDatabaseUrl } from '@expedition/db/testing';
import type { Launched } from '../launcher-harness';

export const PORTAL_API = '/api/portal/v1';

export interface Answer<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  body: T;
}

/**
 * One browser-like caller of the portal API: keeps the session cookie and the CSRF token the API hands out, sends
 * the portal's own Origin (so the CSRF layer is passed as a real browser on the portal would), and, when given a
 * `clientIp`, claims that address through X-Forwarded-For (honoured only because the suite starts the launcher with
 * TRUST_PROXY=loopback: the connection itself always comes from loopback).
 */
export class PortalCaller {
  private cookie = '';
  private csrf = '';

  constructor(
    private readonly portalUrl: string,
    readonly clientIp?: string,
  ) {}

  async send<T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<Answer<T>> {
    const headers: Record<string, string> = { Origin: this.portalUrl, Accept: 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (this.cookie) headers['Cookie'] = this.cookie;
    if (this.csrf) headers['X-CSRF-Token'] = this.csrf;
    if (this.clientIp) headers['X-Forwarded-For'] = this.clientIp;
    const res = await fetch(`${this.portalUrl}${PORTAL_API}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      if (!pair.startsWith('svc_portal_session=')) continue;
      this.cookie = pair.endsWith('=') ? '' : pair;
      if (!this.cookie) this.csrf = '';
    }
    const text = await res.text();
    const parsed = (text ? JSON.parse(text) : {}) as T;
    const csrfToken = (parsed as { csrfToken?: unknown }).csrfToken;
    if (typeof csrfToken === 'string') this.csrf = csrfToken;
    return { status: res.status, headers: res.headers, body: parsed };
  }

  post<T = Record<string, unknown>>(path: string, body: unknown = {}) {
    return this.send<T>('POST', path, body);
  }

  get<T = Record<string, unknown>>(path: string) {
    return this.send<T>('GET', path);
  }

  async signUp(email: string, password: string, operatorName: string) {
    return this.post<{ user: { id: string; operatorId: string }; operator: { id: string }; code?: string }>(
      '/auth/signup',
      { email, password, operatorName },
    );
  }

  async logIn(email: string, password: string) {
    return this.post<{ code?: string }>('/auth/login', { email, password });
  }
}

export interface OutboxMail {
  id: string;
  to: string;
  subject: string;
  text: string;
  sentAt: string;
  links: string[];
}

/** The dev outbox (embedded mode, loopback callers only: asked without X-Forwarded-For). */
export async function outbox(portalUrl: string, to?: string): Promise<OutboxMail[]> {
  const res = await fetch(`${portalUrl}${PORTAL_API}/dev/outbox`);
  if (res.status !== 200) throw new Error(`outbox answered ${res.status}`);
  const { mails } = (await res.json()) as { mails: OutboxMail[] };
  return to === undefined ? mails : mails.filter((m) => m.to.toLowerCase() === to.toLowerCase());
}

/** Polls the outbox until a mail to `to` whose subject matches arrives (mails are written after some answers). */
export async function mailTo(portalUrl: string, to: string, subject: RegExp, timeoutMs = 15_000): Promise<OutboxMail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = (await outbox(portalUrl, to)).find((m) => subject.test(m.subject));
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no mail to ${to} matching ${subject} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The `token` query parameter of the mail's link to `page` (e.g. /verify-email). */
export function tokenIn(mail: OutboxMail, page: string): string {
  const link = mail.links.find((l) => new URL(l).pathname === page);
  const token = link ? new URL(link).searchParams.get('token') : null;
  if (!token) throw new Error(`no ${page} link in "${mail.subject}": ${mail.links.join(', ')}`);
  return token;
}

/** Signs up an owner and verifies its address through the mailed link (as the UI would). */
export async function verifiedOwner(
  portalUrl: string,
  caller: PortalCaller,
  email: string,
  password: string,
  operatorName: string,
) {
  const created = await caller.signUp(email, password, operatorName);
  if (created.status !== 201) throw new Error(`sign-up answered ${created.status}: ${JSON.stringify(created.body)}`);
  const token = tokenIn(await mailTo(portalUrl, email, /^Confirm your e-mail address$/), '/verify-email');
  const verified = await caller.post('/auth/verify-email', { token });
  if (verified.status !== 200) throw new Error(`verification answered ${verified.status}`);
  return created.body;
}

/** The provider admin's session (the log-in the launcher wrote into DATA_DIR/provider-admin.json). */
export async function providerAdmin(
  portalUrl: string,
  login: { email: string; password: string },
): Promise<PortalCaller> {
  const admin = new PortalCaller(portalUrl);
  const res = await admin.logIn(login.email, login.password);
  if (res.status !== 200) throw new Error(`provider admin log-in answered ${res.status}`);
  return admin;
}

export interface AuditEntry {
  id: string;
  at: string;
  actor: { userId: string | null; email: string | null; role: string | null };
  operatorId: string | null;
  action: string;
  targetType: string | null;
  targetId: string | null;
  before: unknown;
  after: unknown;
  ip: string | null;
}

/** Every audit entry of one operator, newest first (all pages), read through the provider admin API. */
export async function auditOf(admin: PortalCaller, operatorId: string): Promise<AuditEntry[]> {
  const entries: AuditEntry[] = [];
  let cursor: string | null = null;
  do {
    const query: URLSearchParams = new URLSearchParams({ operatorId, limit: '100', ...(cursor ? { cursor } : {}) });
    const page: Answer<{ entries: AuditEntry[]; nextCursor: string | null }> = await admin.get<{
      entries: AuditEntry[];
      nextCursor: string | null;
    }>(`/admin/audit?${query}`);
    if (page.status !== 200) throw new Error(`admin audit answered ${page.status}`);
    entries.push(...page.body.entries);
    cursor = page.body.nextCursor;
  } while (cursor);
  return entries;
}

/** Writes raw bytes on a fresh TCP connection and returns everything the server sent until it closed. */
export function rawExchange(url: string, bytes: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(bytes));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

let seq = 0;
/** A unique, readable suffix for addresses and names of this run. */
export const unique = (): string => `${process.pid}-${Date.now().toString(36)}-${++seq}`;

/** A password zxcvbn-ts rates strong (it is random). */
export const strongPassword = (): string => `Moraine-${Math.random().toString(36).slice(2, 10)}-crevasse-${++seq}`;

/** Stops the launcher; it must exit 0 (a graceful shutdown). Otherwise its output is printed to say why. */
export async function stopLaunched(platform: Launched): Promise<void> {
  const code = await platform.stop();
  if (code !== 0) console.error(`launcher exited with ${code}:\n${platform.output()}`);
  expect(code).toBe(0);
}

/**
 * A fresh PostgreSQL schema of TEST_DATABASE_URL for a launcher of the hostile suite: the env it runs with
 * (DATABASE_URL to the schema, and the secrets a deployed platform must be given), and `drop()` for afterAll, which
 * takes the simulated processor's books beside it too.
 */
export function postgresLaunch(prefix: string) {
  const schema = `${prefix}_${randomBytes(5).toString('hex')}`;
  const url = new URL(testDatabaseUrl());
  url.searchParams.set('schema', schema);
  return {
    schema,
    env: {
      DATABASE_URL: url.toString(),
      WEBHOOK_SECRET_KEYS: `${prefix}:${randomBytes(32).toString('base64')}`,
      SIMULATED_PROCESSOR_WEBHOOK_SECRET: `whsec_${prefix}_${randomBytes(16).toString('hex')}`,
    },
    async drop() {
      const db = await createDatabase({ databaseUrl: testDatabaseUrl() });
      await db.withConnection((sql) =>
        sql.exec(
          `DROP SCHEMA IF EXISTS "${schema}" CASCADE; DROP SCHEMA IF EXISTS "${schema}_simulated_processor" CASCADE`,
        ),
      );
      await db.close();
    },
  };
}
