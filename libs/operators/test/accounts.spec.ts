import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { hash as argon2Hash } from '@node-rs/argon2';
import type { Database } from '@expedition/db';
import { createTestDatabase } from '@expedition/db/testing';
import { hashToken } from '@expedition/platform';
import { createTestClock } from '@expedition/platform/testing';
import {
  AccountError,
  DEFAULT_PROVIDER_ADMIN_EMAIL,
  createAccountService,
  createSecretBox,
  ensureDemoOperator,
  ensureDemoPortalOwner,
  ensureProviderAdmin,
  hashPassword,
  passwordProblem,
  providerAdminFilePath,
  verifyPassword,
  type AccountService,
} from '../src';

let db: Database;
let accounts: AccountService;
const clock = createTestClock();
const PASSWORD = 'a-long-enough-passphrase';

beforeAll(async () => {
  db = await createTestDatabase();
  accounts = createAccountService({ prisma: db.prisma, clock });
});
afterAll(() => db.close());

describe('passwordProblem', () => {
  it.each([
    ['a short one', 'short-pass', /at least 12/],
    ['a common one (any case)', 'Password1234', /too common/],
    ['one repeated character', 'zzzzzzzzzzzzzz', /too easy/],
    ['one over 256 characters', 'x'.repeat(257), /at most 256/],
  ])('refuses %s', (_what, password, reason) => {
    expect(passwordProblem(password)).toMatch(reason);
  });

  it('refuses a password containing the e-mail address, accepts a long passphrase', () => {
    expect(passwordProblem('me@example.com-and-more', { email: 'me@example.com' })).toMatch(/e-mail/);
    expect(passwordProblem('correct horse battery staple 9')).toBeNull();
  });

  it.each([
    'passwordpassword',
    '1qaz2wsx3edc4rfv',
    'qwertyuiopasdfghjkl',
    '123123123123',
    'iloveyou123456',
    'trustno1trustno1',
    'monkey12345678',
    'zaq12wsxcde3',
  ])('refuses the breached or patterned password %s (zxcvbn dictionaries, offline)', (password) => {
    expect(passwordProblem(password)).toMatch(/too common or too easy to guess/);
  });

  it('judges the NFKC form: full-width "ｐａｓｓｗｏｒｄｐａｓｓｗｏｒｄ" is "passwordpassword"', () => {
    expect(passwordProblem('ｐａｓｓｗｏｒｄｐａｓｓｗｏｒｄ')).toMatch(/too common/);
  });
});

describe('password hashing (NFKC)', () => {
  it('a password typed in another Unicode form logs in: hashed and compared as NFKC', async () => {
    const typed = 'ﬁnal-Ｃｈａｐｔｅｒ-of-92'; // ligature and full-width letters
    const hash = await hashPassword(typed);
    expect(await verifyPassword(hash, 'final-Chapter-of-92')).toBe(true);
    expect(await verifyPassword(hash, typed)).toBe(true);
    expect(await verifyPassword(hash, 'final-chapter-of-92')).toBe(false);
  });

  it('a hash made before normalization, from a non-NFKC password, still verifies with that password', async () => {
    const typed = 'ﬁnal-Ｃｈａｐｔｅｒ-of-92';
    const legacy = await argon2Hash(typed, { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 });
    expect(await verifyPassword(legacy, typed)).toBe(true);
  });
});

describe('tokens', () => {
  it('a verification token can be used once, even by two concurrent requests', async () => {
    const { verificationToken } = await accounts.signUp({
      email: 'race@example.com',
      password: PASSWORD,
      operatorName: 'Race Co',
    });
    const results = await Promise.allSettled([
      accounts.verifyEmail(verificationToken),
      accounts.verifyEmail(verificationToken),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const rejected = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(rejected.reason).toBeInstanceOf(AccountError);
    expect((rejected.reason as AccountError).code).toBe('invalid_token');
    const stored = await db.prisma.userToken.findUniqueOrThrow({ where: { tokenHash: hashToken(verificationToken) } });
    expect(stored.usedAt).not.toBeNull();
  });

  it('a password reset ends every session and voids the other reset links', async () => {
    await accounts.signUp({ email: 'reset@example.com', password: PASSWORD, operatorName: 'Reset Co' });
    const user = (await accounts.findUserByEmail('reset@example.com'))!;
    const session = await accounts.createSession(user.id);
    const first = (await accounts.requestPasswordReset('reset@example.com'))!;
    const second = (await accounts.requestPasswordReset('RESET@example.com '))!;
    await accounts.confirmPasswordReset(second.token, 'another-long-passphrase');
    expect(await accounts.resolveSession(session.token)).toBeNull();
    await expect(accounts.confirmPasswordReset(first.token, 'third-long-passphrase')).rejects.toMatchObject({
      code: 'invalid_token',
    });
    expect(await accounts.requestPasswordReset('nobody@example.com')).toBeNull();
  });
});

describe('provisioning for the embedded launcher', () => {
  it('ensureProviderAdmin creates one admin, keeps its log-in in a 0600 file, and reports it again on the next start', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'accounts-'));
    const first = await ensureProviderAdmin({ accounts, dataDir });
    expect(first).toMatchObject({ email: DEFAULT_PROVIDER_ADMIN_EMAIL, created: true });
    expect(first.password).toMatch(/^[A-Za-z0-9_-]{24}$/);
    const file = providerAdminFilePath(dataDir);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ email: first.email, password: first.password });
    const again = await ensureProviderAdmin({ accounts, dataDir });
    expect(again).toMatchObject({ email: first.email, password: first.password, created: false });
    await accounts.authenticate(first.email, first.password!);
    expect(await accounts.listProviderAdmins()).toHaveLength(1);

    // Password changed in the portal: never reset, reported as unknown.
    const admin = (await accounts.findUserByEmail(first.email))!;
    await accounts.changePassword(admin.id, first.password, 'admin-changed-passphrase');
    expect((await ensureProviderAdmin({ accounts, dataDir })).password).toBeNull();
    // Another DATA_DIR (no file) on the same database: the existing admin, password unknown.
    const other = await ensureProviderAdmin({ accounts, dataDir: mkdtempSync(path.join(tmpdir(), 'accounts-')) });
    expect(other).toMatchObject({ email: first.email, password: null, created: false });
  });

  it('ensureDemoPortalOwner gives the demo operator a verified owner and writes the log-in into demo-operator.json', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'accounts-demo-'));
    const secretBox = createSecretBox([{ kid: 'k', key: Buffer.alloc(32, 3) }]);
    const demo = await ensureDemoOperator({
      prisma: db.prisma,
      dataDir,
      demoOrigin: 'http://localhost:4200',
      webhookUrl: 'http://localhost:4200/webhooks/expedition',
      secretBox,
    });
    const info = await ensureDemoPortalOwner({ accounts, dataDir });
    expect(info.portalEmail).toEqual(expect.any(String));
    expect(info.portalPassword).toMatch(/^[A-Za-z0-9_-]{24}$/);
    const file = JSON.parse(readFileSync(path.join(dataDir, 'demo-operator.json'), 'utf8'));
    expect(file).toMatchObject({
      operatorId: demo.operatorId,
      portalEmail: info.portalEmail,
      portalPassword: info.portalPassword,
    });
    const user = await accounts.authenticate(info.portalEmail!, info.portalPassword!);
    expect(user).toMatchObject({ role: 'owner', operatorId: demo.operatorId, emailVerified: true });

    // The next start: ensureDemoOperator keeps the credentials, ensureDemoPortalOwner reuses them.
    await ensureDemoOperator({
      prisma: db.prisma,
      dataDir,
      demoOrigin: 'http://localhost:4200',
      webhookUrl: 'http://localhost:4200/webhooks/expedition',
      secretBox,
    });
    const again = await ensureDemoPortalOwner({ accounts, dataDir });
    expect(again.portalPassword).toBe(info.portalPassword);
    expect(await db.prisma.operatorUser.count({ where: { operatorId: demo.operatorId } })).toBe(1);
  });
});
