// Test support for the operator and admin routers: the routers mounted in a small express app with a fake
// principal (header X-Test-Principal), the portal's real guards and error handler, over a real test database.
import express, { type Express } from 'express';
import request from 'supertest';
import pino from 'pino';
import { randomUUID } from 'node:crypto';
import { createTestDatabase } from '@expedition/db/testing';
import { syncCatalog, type Database } from '@expedition/db';
import { catalogSnapshot } from '@expedition/domain-pricing';
import { createOperatorService, createSecretBox, type OperatorService } from '@expedition/operators';
import { createTestClock, type TestClock } from '@expedition/platform/testing';
import { portalErrorHandler, portalNotFound } from '../http/errors';
import { createGuards } from '../http/guards';
import { setPrincipal, type PortalPrincipal } from '../http/principal';
import type { PortalRouteDeps } from '../http/route-deps';
import { adminRouter } from '../admin/admin.router';
import { operatorRouter } from './operator.router';

export const TEST_KEYRING = [{ kid: 't1', key: Buffer.alloc(32, 0x5a) }] as const;
export const WIDGET_URL = 'http://localhost:3003';
export const API_BASE = '/api/portal/v1';

export interface PortalHarness {
  app: Express;
  db: Database;
  clock: TestClock;
  operators: OperatorService;
  close(): Promise<void>;
}

export async function createPortalHarness(): Promise<PortalHarness> {
  const db = await createTestDatabase();
  await syncCatalog(db.prisma, catalogSnapshot());
  const clock = createTestClock();
  const secretBox = createSecretBox([...TEST_KEYRING] as never);
  const operators = createOperatorService({ prisma: db.prisma, clock, secretBox });
  const logger = pino({ level: 'silent' });
  const deps: PortalRouteDeps = {
    prisma: db.prisma,
    clock,
    logger,
    operators,
    guards: createGuards(),
    urls: {
      portal: 'http://localhost:3004',
      widget: WIDGET_URL,
      embed: 'http://localhost:3002',
      quoteApi: 'http://localhost:3001',
    },
  };
  const app = express();
  app.set('trust proxy', false);
  app.use(express.json());
  app.use((req, _res, next) => {
    const raw = req.get('x-test-principal');
    if (raw) setPrincipal(req, JSON.parse(raw) as PortalPrincipal);
    next();
  });
  const api = express.Router();
  api.use(operatorRouter(deps));
  api.use(adminRouter(deps));
  app.use(API_BASE, api);
  app.use(portalNotFound());
  app.use(portalErrorHandler(logger));
  return { app, db, clock, operators, close: () => db.close() };
}

export interface TestUser {
  principal: PortalPrincipal;
  header: string;
}

/** A real user row (owner, member or provider admin) and the principal a session of it would carry. */
export async function createUser(
  h: PortalHarness,
  role: PortalPrincipal['role'],
  operatorId: string | null,
): Promise<TestUser> {
  const email = `${role}-${randomUUID().slice(0, 8)}@example.test`;
  const user = await h.db.prisma.operatorUser.create({
    data: { email, passwordHash: 'not-a-real-hash', role, operatorId, emailVerifiedAt: h.clock.now() },
  });
  const principal: PortalPrincipal = { userId: user.id, email, role, operatorId, sessionId: randomUUID() };
  return { principal, header: JSON.stringify(principal) };
}

/** An active operator with an owner, a member and a test key. */
export async function createOperatorWithUsers(h: PortalHarness, name = `Op ${randomUUID().slice(0, 6)}`) {
  const operator = await h.operators.createOperator({ name, status: 'active' });
  const key = await h.operators.mintPublishableKey(operator.id, 'test', 'first');
  const owner = await createUser(h, 'owner', operator.id);
  const member = await createUser(h, 'member', operator.id);
  return { operator, key, owner, member };
}

export type OperatorWithUsers = Awaited<ReturnType<typeof createOperatorWithUsers>>;

/** Requests to /api/portal/v1 as a user (null: no session). */
export interface PortalCaller {
  get(path: string): request.Test;
  post(path: string, body?: object): request.Test;
  put(path: string, body?: object): request.Test;
  delete(path: string): request.Test;
}

export interface RouterSuite {
  h: PortalHarness;
  /** "Alpha Expeditions" and "Beta Voyages": active, each with an owner, a member and a test key. */
  a: OperatorWithUsers;
  b: OperatorWithUsers;
  admin: TestUser;
  as(user: TestUser | null): PortalCaller;
}

/** The operator router specs' world, made once per spec file (jest hooks registered here). */
export function useRouterSuite(): RouterSuite {
  const suite = {
    as: (user: TestUser | null): PortalCaller => {
      const withUser = (req: request.Test) => (user ? req.set('X-Test-Principal', user.header) : req);
      return {
        get: (path) => withUser(request(suite.h.app).get(API_BASE + path)),
        post: (path, body) => withUser(request(suite.h.app).post(API_BASE + path)).send(body ?? {}),
        put: (path, body) => withUser(request(suite.h.app).put(API_BASE + path)).send(body ?? {}),
        delete: (path) => withUser(request(suite.h.app).delete(API_BASE + path)),
      };
    },
  } as RouterSuite;
  beforeAll(async () => {
    suite.h = await createPortalHarness();
    suite.a = await createOperatorWithUsers(suite.h, 'Alpha Expeditions');
    suite.b = await createOperatorWithUsers(suite.h, 'Beta Voyages');
    suite.admin = await createUser(suite.h, 'provider_admin', null);
  });
  afterAll(async () => {
    await suite.h?.close();
  });
  return suite;
}
