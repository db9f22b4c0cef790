import type { Database } from '@expedition/db';
import { createTestDatabase } from '@expedition/db/testing';
import type { TestClock } from '@expedition/platform/testing';
import { OperatorError } from '../src/lib/operator-error';
import { type OperatorServices, createOperatorServices } from '../src/lib/operator.service';
import type { SecretBox } from '../src/lib/secret-box';
import { countingRandomBytes, testClock, testSecretBox } from './helpers';

export interface OperatorFixture {
  db: Database;
  clock: TestClock;
  secretBox: SecretBox;
  services: OperatorServices;
}

/**
 * The operator services over one test database per spec file: operators (and their webhook events) are emptied before
 * each test, which gets a fresh clock and fresh services (deterministic randomness, the test keyring `a`).
 */
export function useOperatorFixture(): OperatorFixture {
  const fixture = { secretBox: testSecretBox() } as OperatorFixture;
  beforeAll(async () => {
    fixture.db = await createTestDatabase();
  });
  afterAll(async () => {
    await fixture.db.close();
  });
  beforeEach(async () => {
    await fixture.db.prisma.webhookEvent.deleteMany();
    await fixture.db.prisma.operator.deleteMany();
    fixture.clock = testClock();
    fixture.services = createOperatorServices({
      prisma: fixture.db.prisma,
      clock: fixture.clock,
      randomBytes: countingRandomBytes(),
      secretBox: fixture.secretBox,
    });
  });
  return fixture;
}

export async function expectOperatorError(promise: Promise<unknown>, code: OperatorError['code'], message?: RegExp) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OperatorError);
  expect((error as OperatorError).code).toBe(code);
  if (message) expect((error as OperatorError).message).toMatch(message);
}

/** A new operator, active from the start. */
export function activeOperator(fixture: OperatorFixture, name = 'Ice Tours') {
  return fixture.services.profiles.createOperator({ name, status: 'active' });
}
