import { PASSWORD, useAccountFixture } from './account-fixture';

const f = useAccountFixture();

describe('provisioning', () => {
  it('createProviderAdmin: a verified provider admin, with a generated password returned once unless one is given', async () => {
    const generated = await f.services.provisioning.createProviderAdmin('Staff@Example.com');
    expect(generated.user).toMatchObject({
      email: 'staff@example.com',
      role: 'provider_admin',
      operatorId: null,
      emailVerified: true,
    });
    expect(generated.password).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(await f.services.provisioning.checkPassword(generated.user.id, generated.password)).toBe(true);
    expect(await f.services.provisioning.checkPassword(generated.user.id, PASSWORD)).toBe(false);
    expect(await f.services.provisioning.checkPassword('not-a-uuid', PASSWORD)).toBe(false);

    const given = await f.services.provisioning.createProviderAdmin('given@example.com', PASSWORD);
    expect(given.password).toBe(PASSWORD);
    expect((await f.services.provisioning.listProviderAdmins()).map((a) => a.email)).toEqual([
      'staff@example.com',
      'given@example.com',
    ]);
    await expect(f.services.provisioning.createProviderAdmin('staff@example.com')).rejects.toMatchObject({
      code: 'email_taken',
    });
    await expect(f.services.provisioning.createProviderAdmin('weak@example.com', 'short')).rejects.toMatchObject({
      code: 'weak_password',
    });
  });

  it('ensureOwner creates a verified owner, gives an existing one the password back, refuses another operator’s user', async () => {
    const [mine, theirs] = await Promise.all([
      f.db.prisma.operator.create({ data: { name: 'Mine' } }),
      f.db.prisma.operator.create({ data: { name: 'Theirs' } }),
    ]);
    const owner = await f.services.provisioning.ensureOwner(mine.id, 'demo@example.com', PASSWORD, 'Demo');
    expect(owner).toMatchObject({ role: 'owner', operatorId: mine.id, emailVerified: true, name: 'Demo' });
    expect(await f.services.provisioning.ensureOwner(mine.id, 'demo@example.com', PASSWORD)).toEqual(owner);

    await f.services.provisioning.ensureOwner(mine.id, 'demo@example.com', 'restored-long-passphrase');
    expect(await f.services.provisioning.checkPassword(owner.id, 'restored-long-passphrase')).toBe(true);
    await expect(f.services.provisioning.ensureOwner(theirs.id, 'demo@example.com', PASSWORD)).rejects.toMatchObject({
      code: 'email_taken',
    });
  });
});
