import type { Database } from '@expedition/db';
import { createTestDatabase } from '@expedition/db/testing';
import { createTestClock } from '@expedition/platform/testing';
import { createIdempotencyStore } from '../src/purchase/idempotency.repository';

/** The scoped store behind every Idempotency-Key: its in-flight lock, retention and take-over of dead requests. */

let db: Database;
const clock = createTestClock();
const OPTS = { retainMs: 24 * 3600_000, staleInFlightMs: 120_000 };
const answer = { status: 201, headers: { 'X-A': '1' }, body: { id: 'acs_1' } };

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.close());

const store = () => createIdempotencyStore({ prisma: db.prisma, clock });

describe('createIdempotencyStore', () => {
  it('begin locks the key: a twin is in_flight, another body a conflict; finish stores the answer for replay', async () => {
    const s = store();
    expect(await s.begin('acp:k1:POST /x', 'key-1', 'h1', OPTS)).toEqual({ kind: 'started' });
    expect(await s.begin('acp:k1:POST /x', 'key-1', 'h1', OPTS)).toEqual({ kind: 'in_flight' });
    expect(await s.begin('acp:k1:POST /x', 'key-1', 'h2', OPTS)).toEqual({ kind: 'conflict' });
    expect(await s.find('acp:k1:POST /x', 'key-1')).toBeNull();
    await s.finish('acp:k1:POST /x', 'key-1', answer);
    expect(await s.begin('acp:k1:POST /x', 'key-1', 'h1', OPTS)).toEqual({ kind: 'replay', response: answer });
    // Another scope is another namespace.
    expect(await s.begin('acp:k2:POST /x', 'key-1', 'h9', OPTS)).toEqual({ kind: 'started' });
  });

  it('release frees the key (a 5xx is never kept)', async () => {
    const s = store();
    expect(await s.begin('scope-r', 'key-r', 'h', OPTS)).toEqual({ kind: 'started' });
    await s.release('scope-r', 'key-r');
    expect(await s.begin('scope-r', 'key-r', 'other', OPTS)).toEqual({ kind: 'started' });
  });

  it('takes over an in-flight key whose request died, and forgets answers past retention', async () => {
    const s = store();
    expect(await s.begin('scope-s', 'key-s', 'h', OPTS)).toEqual({ kind: 'started' });
    clock.advance(OPTS.staleInFlightMs + 1);
    expect(await s.begin('scope-s', 'key-s', 'h', OPTS)).toEqual({ kind: 'started' });
    await s.finish('scope-s', 'key-s', answer);
    clock.advance(OPTS.retainMs - 1000);
    expect((await s.begin('scope-s', 'key-s', 'h', OPTS)).kind).toBe('replay');
    clock.advance(2000);
    expect(await s.begin('scope-s', 'key-s', 'another body', OPTS)).toEqual({ kind: 'started' });
  });

  it('save keeps the first answer only', async () => {
    const s = store();
    expect(await s.save('scope-v', 'key-v', 'h', answer)).toBe(true);
    expect(await s.save('scope-v', 'key-v', 'h', { ...answer, status: 200 })).toBe(false);
    expect((await s.find('scope-v', 'key-v'))?.response.status).toBe(201);
  });
});
