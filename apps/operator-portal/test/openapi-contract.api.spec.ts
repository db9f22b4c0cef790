import request from 'supertest';
import type { z } from 'zod';
import {
  CreateInviteResponseSchema,
  LoginResponseSchema,
  OutboxResponseSchema,
  PortalErrorSchema,
  SessionResponseSchema,
  SignupResponseSchema,
  TeamResponseSchema,
} from '@expedition/contracts';
import { buildPortalOpenApi } from '@expedition/contracts/openapi';
import { createTestClock } from '@expedition/platform/testing';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createOutboxMailer } from '../src/mail/mailer';
import {
  API,
  createPortalHarness,
  h,
  logIn,
  PORTAL_URL,
  PortalClient,
  signUp,
  uniqueEmail,
  usePortalHarness,
} from './harness';

usePortalHarness();

const conforms = <S extends z.ZodType>(schema: S, body: unknown) => {
  const result = schema.safeParse(body);
  if (!result.success) throw new Error(JSON.stringify(result.error.issues));
  return result.data;
};

describe('GET /api/portal/v1/openapi.json', () => {
  it('serves the portal document, a valid OpenAPI 3.1 document listing every accounts and team route', async () => {
    const res = await request(h.app).get(`${API}/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(JSON.parse(JSON.stringify(buildPortalOpenApi({ serverUrl: PORTAL_URL }))));
    const { Validator } = await import('@seriousme/openapi-schema-validator');
    const validated = await new Validator().validate(res.body);
    expect(validated.errors).toBeUndefined();
    const ops = Object.entries(res.body.paths as Record<string, object>).flatMap(([p, item]) =>
      Object.keys(item).map((m) => `${m.toUpperCase()} ${p}`),
    );
    for (const expected of [
      'POST /api/portal/v1/auth/signup',
      'POST /api/portal/v1/auth/login',
      'POST /api/portal/v1/auth/logout',
      'POST /api/portal/v1/auth/logout-all',
      'GET /api/portal/v1/auth/session',
      'POST /api/portal/v1/auth/verify-email',
      'POST /api/portal/v1/auth/verify-email/resend',
      'POST /api/portal/v1/auth/password-reset',
      'POST /api/portal/v1/auth/password-reset/confirm',
      'POST /api/portal/v1/auth/password',
      'POST /api/portal/v1/auth/invites/accept',
      'GET /api/portal/v1/team',
      'POST /api/portal/v1/team/invites',
      'DELETE /api/portal/v1/team/invites/{id}',
      'DELETE /api/portal/v1/team/members/{userId}',
      'GET /api/portal/v1/dev/outbox',
    ]) {
      expect(ops).toContain(expected);
    }
  });
});

describe('responses conform to the contract schemas', () => {
  it('sign-up, log-in, session, team, invitation and errors', async () => {
    const { client, email } = await signUp(h);
    const signup = await new PortalClient(h.app).post(`${API}/auth/signup`, {
      email: uniqueEmail('contract'),
      password: 'contract-password-1',
      operatorName: 'Contract Co',
    });
    conforms(SignupResponseSchema, signup.body);
    conforms(
      LoginResponseSchema,
      (await new PortalClient(h.app).post(`${API}/auth/login`, { email, password: 'correct-horse-battery-7' })).body,
    );
    conforms(SessionResponseSchema, (await client.get(`${API}/auth/session`)).body);
    conforms(
      CreateInviteResponseSchema,
      (await client.post(`${API}/team/invites`, { email: uniqueEmail(), role: 'member' })).body,
    );
    conforms(TeamResponseSchema, (await client.get(`${API}/team`)).body);
    for (const res of [
      await request(h.app).get(`${API}/auth/session`),
      await request(h.app).post(`${API}/auth/login`).send({}),
      await new PortalClient(h.app).post(`${API}/auth/login`, { email, password: 'nope-nope-nope' }),
      await new PortalClient(h.app).post(`${API}/auth/signup`, {}),
    ]) {
      conforms(PortalErrorSchema, res.body);
    }
    await logIn(h, email);
  });

  it('the outbox listing', async () => {
    const dir = path.join(mkdtempSync(path.join(tmpdir(), 'outbox-')), 'outbox');
    const outbox = createOutboxMailer({ dir, from: 'p@example.com', clock: createTestClock() });
    const withOutbox = await createPortalHarness({
      db: h.db,
      deps: { mailer: outbox, outbox: { list: () => outbox.list(), dir } },
    });
    await signUp(withOutbox);
    conforms(OutboxResponseSchema, (await request(withOutbox.app).get(`${API}/dev/outbox`)).body);
  });
});
