import type { Database } from '@expedition/db';
import { createTestDatabase } from '@expedition/db/testing';
import { type TestClock, createTestClock } from '@expedition/platform/testing';
import { type AccountServices, createAccountServices } from '../src/lib/accounts/accounts.service';

export const PASSWORD = 'a-long-enough-passphrase';

export interface AccountFixture {
  db: Database;
  clock: TestClock;
  services: AccountServices;
}

/** The account services over one test database per spec file (tests use their own addresses, nothing is emptied). */
export function useAccountFixture(): AccountFixture {
  const fixture = { clock: createTestClock() } as AccountFixture;
  beforeAll(async () => {
    fixture.db = await createTestDatabase();
    fixture.services = createAccountServices({ prisma: fixture.db.prisma, clock: fixture.clock });
  });
  afterAll(() => fixture.db.close());
  return fixture;
}
