import request from 'supertest';
import { DestinationListSchema, PlanDetailsSchema, ProductListSchema } from '@expedition/contracts';
import { createHarness, type Harness } from './harness';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

describe('GET /api/v1/destinations', () => {
  it('lists the five destinations with their slugs', async () => {
    const res = await request(h.app).get('/api/v1/destinations');
    expect(res.status).toBe(200);
    const body = DestinationListSchema.parse(res.body);
    expect(body.destinations.map((d) => d.slug).sort()).toEqual([
      'african-safari',
      'antarctica',
      'arctic',
      'galapagos',
      'svalbard',
    ]);
    expect(body.destinations.find((d) => d.slug === 'svalbard')?.defaultDurationDays).toBe(8);
  });
});

describe('GET /api/v1/products', () => {
  it('lists public plans of every destination by default', async () => {
    const res = await request(h.app).get('/api/v1/products');
    expect(res.status).toBe(200);
    const body = ProductListSchema.parse(res.body);
    expect(body.destination).toBe('all');
    expect(body.plansCount).toBe(body.plans.length);
    expect(body.plans.length).toBeGreaterThan(5);
    expect(body.plans.every((p) => p.availabilityMode !== 'admin_only')).toBe(true);
    expect(body.plans[0]).toMatchObject({
      id: expect.any(String),
      planId: body.plans[0]!.id,
      brand: expect.any(String),
    });
  });

  it('filters by destination slug and tier', async () => {
    const res = await request(h.app).get('/api/v1/products').query({ destination: 'antarctica', tier: 'premium' });
    expect(res.status).toBe(200);
    expect(res.body.destination).toBe('antarctica');
    expect(res.body.plans.length).toBeGreaterThan(0);
    expect(res.body.plans.every((p: { tier: string }) => p.tier === 'premium')).toBe(true);
  });

  it('includes admin-only and disabled plans only with include_disabled=true', async () => {
    const plain = await request(h.app).get('/api/v1/products');
    const all = await request(h.app).get('/api/v1/products').query({ include_disabled: 'true' });
    expect(all.body.plansCount).toBeGreaterThan(plain.body.plansCount);
    expect(all.body.plans.some((p: { availabilityMode: string }) => p.availabilityMode === 'admin_only')).toBe(true);
  });

  it('requires a state when residence is US (400)', async () => {
    const res = await request(h.app).get('/api/v1/products').query({ residence: 'US' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'invalid_request', details: [{ path: 'state' }] });
  });

  it('narrows plans by residence and state eligibility', async () => {
    const ny = await request(h.app).get('/api/v1/products').query({ residence: 'US', state: 'NY' });
    const ca = await request(h.app).get('/api/v1/products').query({ residence: 'US', state: 'CA' });
    expect(ny.status).toBe(200);
    expect(ny.body.plansCount).toBeLessThan(ca.body.plansCount);
  });

  it('answers 400 for an unknown destination or tier', async () => {
    const dest = await request(h.app).get('/api/v1/products').query({ destination: 'mars' });
    expect(dest.status).toBe(400);
    expect(dest.body.code).toBe('unknown_destination');
    expect((await request(h.app).get('/api/v1/products').query({ tier: 'gold' })).status).toBe(400);
  });
});

describe('GET /api/v1/products/{planId}', () => {
  it('returns the plan details', async () => {
    const list = await request(h.app).get('/api/v1/products').query({ destination: 'galapagos' });
    const id = list.body.plans[0].id;
    const res = await request(h.app).get(`/api/v1/products/${id}`);
    expect(res.status).toBe(200);
    const details = PlanDetailsSchema.parse(res.body);
    expect(details.planId).toBe(id);
    expect(details.eligibility.maxAge).toBeGreaterThan(details.eligibility.minAge);
    expect(details.coverage.evacuationCoverage).toBeGreaterThan(0);
  });

  it('answers 404 when the plan does not exist', async () => {
    const res = await request(h.app).get('/api/v1/products/no-such-plan');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 'plan_not_found', error: expect.stringContaining('no-such-plan') });
  });
});
