import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  DEFAULT_PROVIDER_ADMIN_EMAIL,
  ensureDemoPortalOwner,
  ensureProviderAdmin,
  providerAdminFilePath,
} from '../src/lib/accounts/launcher-logins';
import { ensureDemoOperator } from '../src/lib/demo-operator';
import { createSecretBox } from '../src/lib/secret-box';
import { useAccountFixture } from './account-fixture';

const f = useAccountFixture();

describe('provisioning for the embedded launcher', () => {
  it('ensureProviderAdmin creates one admin, keeps its log-in in a 0600 file, and reports it again on the next start', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'accounts-'));
    const first = await ensureProviderAdmin({ accounts: f.services.provisioning, dataDir });
    expect(first).toMatchObject({ email: DEFAULT_PROVIDER_ADMIN_EMAIL, created: true });
    expect(first.password).toMatch(/^[A-Za-z0-9_-]{24}$/);
    const file = providerAdminFilePath(dataDir);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ email: first.email, password: first.password });
    const again = await ensureProviderAdmin({ accounts: f.services.provisioning, dataDir });
    expect(again).toMatchObject({ email: first.email, password: first.password, created: false });
    await f.services.identity.authenticate(first.email, first.password!);
    expect(await f.services.provisioning.listProviderAdmins()).toHaveLength(1);

    // Password changed in the portal: never reset, reported as unknown.
    const admin = (await f.services.identity.findUserByEmail(first.email))!;
    await f.services.identity.changePassword(admin.id, first.password, 'admin-changed-passphrase');
    expect((await ensureProviderAdmin({ accounts: f.services.provisioning, dataDir })).password).toBeNull();
    // Another DATA_DIR (no file) on the same database: the existing admin, password unknown.
    const other = await ensureProviderAdmin({
      accounts: f.services.provisioning,
      dataDir: mkdtempSync(path.join(tmpdir(), 'accounts-')),
    });
    expect(other).toMatchObject({ email: first.email, password: null, created: false });
  });

  it('ensureDemoPortalOwner gives the demo operator a verified owner and writes the log-in into demo-operator.json', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'accounts-demo-'));
    const secretBox = createSecretBox([{ kid: 'k', key: Buffer.alloc(32, 3) }]);
    const demo = await ensureDemoOperator({
      prisma: f.db.prisma,
      dataDir,
      demoOrigin: 'http://localhost:4200',
      webhookUrl: 'http://localhost:4200/webhooks/expedition',
      secretBox,
    });
    const info = await ensureDemoPortalOwner({ accounts: f.services.provisioning, dataDir });
    expect(info.portalEmail).toEqual(expect.any(String));
    expect(info.portalPassword).toMatch(/^[A-Za-z0-9_-]{24}$/);
    const file = JSON.parse(readFileSync(path.join(dataDir, 'demo-operator.json'), 'utf8'));
    expect(file).toMatchObject({
      operatorId: demo.operatorId,
      portalEmail: info.portalEmail,
      portalPassword: info.portalPassword,
    });
    const user = await f.services.identity.authenticate(info.portalEmail!, info.portalPassword!);
    expect(user).toMatchObject({ role: 'owner', operatorId: demo.operatorId, emailVerified: true });

    // The next start: ensureDemoOperator keeps the credentials, ensureDemoPortalOwner reuses them.
    await ensureDemoOperator({
      prisma: f.db.prisma,
      dataDir,
      demoOrigin: 'http://localhost:4200',
      webhookUrl: 'http://localhost:4200/webhooks/expedition',
      secretBox,
    });
    const again = await ensureDemoPortalOwner({ accounts: f.services.provisioning, dataDir });
    expect(again.portalPassword).toBe(info.portalPassword);
    expect(await f.db.prisma.operatorUser.count({ where: { operatorId: demo.operatorId } })).toBe(1);
  });
});
