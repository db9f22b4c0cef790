import { splitSchemaParam } from '../src/database';
import { isUniqueViolation, type Database } from '../src/index';
import { createTestDatabase, describeWithPostgres } from '../src/testing';
import { seedOperator, seedPlan, seedQuote } from './fixtures';

function crudSuite(kind: 'postgres' | 'pglite') {
  let db: Database;

  beforeAll(async () => {
    db = await createTestDatabase({ kind });
  });

  afterAll(async () => {
    await db?.close();
  });

  it(`runs on ${kind}`, () => {
    expect(db.kind).toBe(kind);
  });

  it('creates an operator, a quote and an estimate with defaults and relations', async () => {
    const { prisma } = db;
    const operator = await seedOperator(prisma);
    const plan = await seedPlan(prisma);
    const quote = await seedQuote(prisma, operator.id);
    await prisma.quoteEstimate.create({
      data: {
        quoteId: quote.id,
        planId: plan.id,
        premiumCents: 45_900,
        travelerPremiumsCents: [22_950, 22_950],
        confidence: 'high',
        isRecommended: true,
        rank: 1,
        cfarEligible: true,
      },
    });

    const loaded = await prisma.quote.findUniqueOrThrow({
      where: { id: quote.id },
      include: { estimates: { include: { plan: true } }, operator: true },
    });
    expect(operator.commissionRateBps).toBe(1000);
    expect(loaded.status).toBe('quoted');
    expect(loaded.optionsStatus).toBe('pending');
    expect(loaded.mode).toBe('test');
    expect(loaded.currency).toBe('USD');
    expect(loaded.travelerAges).toEqual([44, 46]);
    expect(loaded.startDate?.toISOString()).toBe('2026-01-10T00:00:00.000Z');
    expect(loaded.operator?.name).toBe('Polar Tours');
    expect(loaded.estimates).toHaveLength(1);
    expect(loaded.estimates[0]?.plan.destinations).toEqual(['antarctica', 'arctic']);
    expect(loaded.estimates[0]?.travelerPremiumsCents).toEqual([22_950, 22_950]);
  });

  it('refuses a second purchase for the same quote (unique violation)', async () => {
    const { prisma } = db;
    const plan = await seedPlan(prisma);
    const quote = await seedQuote(prisma);
    const purchase = (processorPaymentId: string) =>
      prisma.purchase.create({
        data: {
          quoteId: quote.id,
          planId: plan.id,
          processorPaymentId,
          amountCents: 45_900,
          channel: 'checkout_link',
          mode: 'test',
        },
      });
    await purchase('pi_first');

    const error = await purchase('pi_second').catch((caught: unknown) => caught);
    expect(isUniqueViolation(error)).toBe(true);
    expect(isUniqueViolation(error, 'quoteId')).toBe(true);
    expect(isUniqueViolation(error, 'quoteNumber')).toBe(false);
    expect(isUniqueViolation(new Error('P2002'))).toBe(false);
    expect(await prisma.purchase.count({ where: { quoteId: quote.id } })).toBe(1);
  });

  it('rolls back an interactive transaction', async () => {
    const { prisma } = db;
    const before = await prisma.operator.count();
    await expect(
      prisma.$transaction(async (tx) => {
        await tx.operator.create({ data: { name: 'Doomed' } });
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(await prisma.operator.count()).toBe(before);
  });

  it('enforces foreign keys (estimate for an unknown plan)', async () => {
    const { prisma } = db;
    const quote = await seedQuote(prisma);
    await expect(
      prisma.quoteEstimate.create({
        data: {
          quoteId: quote.id,
          planId: 'no-such-plan',
          premiumCents: 1,
          travelerPremiumsCents: [1],
          confidence: 'low',
          rank: 1,
        },
      }),
    ).rejects.toThrow();
  });

  it('answers raw SQL in its own schema (snake_case tables)', async () => {
    const rows = await db.prisma.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM operators`;
    expect(rows[0]?.n).toBe(await db.prisma.operator.count());
  });
}

describe('CRUD on PGlite', () => crudSuite('pglite'));
describeWithPostgres()('CRUD on PostgreSQL', () => crudSuite('postgres'));

describe('splitSchemaParam', () => {
  it("takes Prisma's ?schema= out of a PostgreSQL URL", () => {
    expect(splitSchemaParam('postgresql://u@h:5432/db?schema=t_x&sslmode=disable')).toEqual({
      url: 'postgresql://u@h:5432/db?sslmode=disable',
      schema: 't_x',
    });
    expect(splitSchemaParam('postgresql://u@h:5432/db')).toEqual({ url: 'postgresql://u@h:5432/db' });
  });
});
