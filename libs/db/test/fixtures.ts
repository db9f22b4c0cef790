import type { PrismaClient } from '../src/index';

let counter = 0;

function unique(prefix: string): string {
  counter += 1;
  return `${prefix}-${process.pid}-${counter}-${Math.random().toString(36).slice(2, 8)}`;
}

export async function seedPlan(prisma: PrismaClient, id = 'plan-basic') {
  return prisma.plan.upsert({
    where: { id },
    update: {},
    create: {
      id,
      name: 'Basic',
      carrier: 'Carrier Co',
      brand: 'Brand',
      tier: 'basic',
      destinations: ['antarctica', 'arctic'],
      availabilityMode: 'always',
      enabled: true,
      catalogVersion: '2025-01',
    },
  });
}

export async function seedOperator(prisma: PrismaClient, name = 'Polar Tours') {
  return prisma.operator.create({ data: { name, status: 'active', embeddingEnabled: true } });
}

export async function seedQuote(prisma: PrismaClient, operatorId?: string) {
  return prisma.quote.create({
    data: {
      quoteNumber: unique('EXP'),
      sessionIdHash: unique('sess'),
      source: operatorId ? 'embed' : 'api',
      operatorId,
      destinationSlug: 'antarctica',
      otherCountries: ['AR'],
      startDate: new Date('2026-01-10'),
      endDate: new Date('2026-01-24'),
      durationDays: 15,
      durationDefaulted: false,
      tripCostCents: 1_250_000,
      travelers: 2,
      travelerAges: [44, 46],
      residence: 'US',
      state: 'CA',
    },
  });
}
