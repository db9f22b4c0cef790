import request from 'supertest';
import { CoverageGapResponseSchema } from '@expedition/contracts';
import { createHarness, type Harness } from './harness';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

describe('POST /api/v1/coverage-gap', () => {
  it('names each gap of a known card, its size, and the plans that close it', async () => {
    const res = await request(h.app)
      .post('/api/v1/coverage-gap')
      .send({ destination: 'antarctica', creditCardName: 'Chase Sapphire Reserve', tripCost: 18000 });
    expect(res.status).toBe(200);
    const body = CoverageGapResponseSchema.parse(res.body);
    expect(body.card).toMatchObject({ matched: true, name: expect.stringMatching(/Sapphire Reserve/) });
    expect(body.card.source).toBeTruthy();
    expect(body.card.asOf).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const evac = body.gaps.find((g) => g.coverage === 'medical_evacuation');
    expect(evac).toBeDefined();
    expect(evac!.gapUsd).toBe(evac!.requiredUsd - evac!.cardCoversUsd);
    expect(evac!.closedBy.length).toBeGreaterThan(0);
    expect(body.summary.length).toBeGreaterThan(10);
  });

  it('answers an unknown card usefully, listing the cards it knows', async () => {
    const res = await request(h.app)
      .post('/api/v1/coverage-gap')
      .send({ destination: 'Galápagos', creditCardName: 'Acme Rewards Ultra', tripCostRange: '10k-20k' });
    expect(res.status).toBe(200);
    expect(res.body.card.matched).toBe(false);
    expect(res.body.knownCards.length).toBeGreaterThanOrEqual(10);
    expect(res.body.tripCost).toMatchObject({ range: '10k-20k', assumedUsd: 20000 });
    expect(res.body.gaps.length).toBeGreaterThan(0);
  });

  it('answers 400 without a destination, or with an unknown one or range', async () => {
    expect((await request(h.app).post('/api/v1/coverage-gap').send({})).status).toBe(400);
    const unknown = await request(h.app).post('/api/v1/coverage-gap').send({ destination: 'Mars' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe('unknown_destination');
    const range = await request(h.app)
      .post('/api/v1/coverage-gap')
      .send({ destination: 'arctic', tripCostRange: 'lots' });
    expect(range.status).toBe(400);
  });
});
