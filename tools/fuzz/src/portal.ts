import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { PORTAL_CSRF_HEADER, PORTAL_SESSION_COOKIE, PortalErrorSchema } from '@expedition/contracts';
import { buildPortalOpenApi } from '@expedition/contracts/openapi';
import { prepareDatabase } from '@expedition/db';
import { createTestDatabase } from '@expedition/db/testing';
import { catalogSnapshot } from '@expedition/domain-pricing';
import {
  createAccountService,
  createOperatorService,
  createSecretBox,
  resolveWebhookSecretKeys,
} from '@expedition/operators';
import { createRateLimiter, systemClock } from '@expedition/platform';
import {
  PORTAL_THROTTLE_LIMITS,
  createApp,
  createOutboxMailer,
  type PortalAppDeps,
  type PortalThrottles,
} from '@expedition/app-operator-portal';
import type { RouteSpec } from './route-spec';
import { documentedOperations } from './openapi';
import { BODY_PARSER_STATUSES, WRITTEN_TABLES, fuzzLogger, fuzzSuite } from './suite';

const PASSWORD = 'correct-horse-battery-7';

/** Throttles no run can exhaust (the budgets themselves are tested in the portal's own suites). */
function generousThrottles(): PortalThrottles {
  const entries = Object.keys(PORTAL_THROTTLE_LIMITS).map((name) => [
    name,
    createRateLimiter({ points: 100_000_000, durationSec: 60, keyPrefix: `fuzz:${name}` }),
  ]);
  return Object.fromEntries(entries) as PortalThrottles;
}

/** Session-ending routes run last, so the routes before them keep one session; a session they end is replaced. */
/** Routes whose refusals are audited authentication events (a failed log-in, a wrong current password …). */
const AUDITED_REFUSALS = new Set([
  '/api/portal/v1/auth/login',
  '/api/portal/v1/auth/password',
  '/api/portal/v1/auth/login-link',
  '/api/portal/v1/auth/verify-email',
  '/api/portal/v1/auth/password-reset/confirm',
]);

const LAST = ['/auth/logout', '/auth/logout-all', '/auth/password', '/team/members/{userId}'];
const order = (p: string) => LAST.findIndex((suffix) => p.includes(suffix));
/** Admin routes last of all: one of them may suspend the owner's operator. */
const rank = (p: string) => (p.includes('/admin/') ? LAST.length : order(p));

/**
 * The operator portal's suite, in two halves (two jest files, so two workers can run them): each half composes its own
 * portal on its own port and database and fuzzes the documented operations its `include` selects.
 */
export function portalFuzzSuite(name: string, port: number, include: (path: string) => boolean): void {
  const PORTAL = `http://127.0.0.1:${port}`;
  fuzzSuite(name, async () => {
    const db = await createTestDatabase();
    await prepareDatabase(db, { catalog: catalogSnapshot() });
    const dataDir = mkdtempSync(path.join(tmpdir(), 'fuzz-portal-'));
    const logger = fuzzLogger();
    const secretBox = createSecretBox(resolveWebhookSecretKeys({ configured: undefined, embedded: true, dataDir }));
    const operators = createOperatorService({ prisma: db.prisma, clock: systemClock, secretBox });
    const accounts = createAccountService({ prisma: db.prisma, clock: systemClock });
    const document = buildPortalOpenApi({ serverUrl: PORTAL });
    const deps: PortalAppDeps = {
      prisma: db.prisma,
      ready: () => db.ping(),
      clock: systemClock,
      logger,
      operators,
      accounts,
      secretBox,
      mailer: createOutboxMailer({
        dir: path.join(dataDir, 'outbox'),
        from: 'portal@fuzz.example',
        clock: systemClock,
        logger,
      }),
      throttles: generousThrottles(),
      urls: {
        portal: PORTAL,
        widget: 'http://127.0.0.1:16653',
        embed: 'http://127.0.0.1:16651',
        quoteApi: 'http://127.0.0.1:16650',
      },
      ui: { manifest: () => null, resolve: () => null },
      openApi: () => document,
    };
    const app = createApp(deps);

    return {
      db,
      app,
      port,
      close: () => db.close(),
      async routes(): Promise<RouteSpec[]> {
        // An owner (operator routes) and a provider admin (admin routes), each with a session made directly (no
        // password hashing per refresh). A request that ends the session gets a fresh one before the next input.
        const owner = await accounts.signUp({
          email: 'owner@fuzz.example',
          password: PASSWORD,
          operatorName: 'Fuzz Expeditions',
        });
        const admin = await accounts.createProviderAdmin('admin@fuzz.example', PASSWORD);
        await accounts.verifyEmail(owner.verificationToken); // only verified owners invite
        const invite = await accounts.createInvite(owner.operator.id, 'member@fuzz.example', 'member', owner.user.id);
        const sessions = new Map<string, { token: string; csrfToken: string }>();
        const sessionHeaders = async (userId: string, check: boolean) => {
          let current = sessions.get(userId);
          if (!current || (check && !(await accounts.resolveSession(current.token)))) {
            const created = await accounts.createSession(userId);
            current = { token: created.token, csrfToken: created.csrfToken };
            sessions.set(userId, current);
          }
          return {
            cookie: `${PORTAL_SESSION_COOKIE}=${current.token}`,
            [PORTAL_CSRF_HEADER.toLowerCase()]: current.csrfToken,
            origin: PORTAL,
          };
        };
        // Real ids for path parameters (mixed with odd ones by the engine).
        const keys = await db.prisma.publishableKey.findMany({ select: { id: true } });
        const ids = [owner.operator.id, owner.user.id, admin.user.id, invite.invite.id, ...keys.map((k) => k.id)];
        const idArb = fc.oneof(fc.constantFrom(...ids), fc.uuid(), fc.constantFrom('evt_test_0000', 'not-an-id'));
        return documentedOperations(document)
          .filter((op) => op.path.startsWith('/api/portal/v1') && include(op.path))
          .sort((a, b) => rank(a.path) - rank(b.path))
          .map((op): RouteSpec => {
            const userId = op.path.includes('/admin/') ? admin.user.id : owner.user.id;
            const endsSessions = order(op.path) >= 0;
            return {
              name: `${op.method} ${op.path}`,
              method: op.method,
              path: op.path,
              params: { id: idArb, userId: idArb, eventId: idArb },
              query: op.query,
              body: op.body ?? (op.method === 'GET' || op.method === 'DELETE' ? undefined : fc.constant({})),
              bodyLimit: 64 * 1024,
              headers: () => sessionHeaders(userId, endsSessions),
              // Routes that can end the session run one input at a time, each with a live session.
              ...(endsSessions ? { headersWrite: true, concurrency: 1 } : {}),
              oddHeaders: ['x-csrf-token'],
              // The document's statuses, plus the JSON parser's answers on every route (it runs before routing) and 429.
              allowed: [...op.allowed, ...BODY_PARSER_STATUSES, 429],
              errorSchema: PortalErrorSchema,
              writes: [...WRITTEN_TABLES],
              // A refused log-in or password change is an authentication event: recorded in the audit log by design
              // (docs/portal.md, "Audit and authentication events"); nothing else may be written.
              ...(AUDITED_REFUSALS.has(op.path)
                ? {
                    refusalWrites: {
                      400: ['audit_entries'],
                      401: ['audit_entries'],
                      403: ['audit_entries'],
                      429: ['audit_entries'],
                    },
                  }
                : {}),
            };
          });
      },
    };
  });
}
