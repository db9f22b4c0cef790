import { PortalOperatorResponseSchema } from '@expedition/contracts';
import { useRouterSuite } from './portal-test-harness';

/** PUT /operator/branding: the checkout pages' brand colour and logo, owner-only, validated, audited. */
const suite = useRouterSuite();
const { as } = suite;
let { h, a } = suite;
beforeAll(() => ({ h, a } = suite));

const stored = () =>
  h.db.prisma.operator.findUniqueOrThrow({ where: { id: a.operator.id }, select: { brandColor: true, logoUrl: true } });
const audits = () =>
  h.db.prisma.auditEntry.count({ where: { operatorId: a.operator.id, action: 'operator.branding_changed' } });

describe('PUT /operator/branding', () => {
  it('stores a dark enough colour and an https logo, answers the operator, and audits the change', async () => {
    const before = await audits();
    const res = await as(a.owner).put('/operator/branding', {
      brandColor: '#7A1F5C',
      logoUrl: 'https://cdn.alpha.example/logo.png',
    });
    expect(res.status).toBe(200);
    expect(PortalOperatorResponseSchema.parse(res.body).operator).toMatchObject({
      brandColor: '#7a1f5c',
      logoUrl: 'https://cdn.alpha.example/logo.png',
    });
    expect(await stored()).toEqual({ brandColor: '#7a1f5c', logoUrl: 'https://cdn.alpha.example/logo.png' });
    expect(await audits()).toBe(before + 1);
  });

  it.each([
    ['a javascript: logo', { logoUrl: 'javascript:alert(1)' }, /https URL/],
    ['an http logo', { logoUrl: 'http://cdn.alpha.example/logo.png' }, /https URL/],
    ['a logo with credentials', { logoUrl: 'https://u:p@cdn.alpha.example/l.png' }, /credentials/],
    ['a colour too light for white text', { brandColor: '#7fb3e6' }, /contrast of .*4\.5:1/],
    ['yellow', { brandColor: '#ffff00' }, /too light/],
    ['not a colour', { brandColor: 'red' }, /hex colour/],
    ['a CSS injection', { brandColor: '#000;}' }, /hex colour/],
    ['an over-long colour', { brandColor: `#${'0'.repeat(40)}` }, /invalid|at most|too big/i],
    ['an over-long logo URL', { logoUrl: `https://cdn.alpha.example/${'a'.repeat(2100)}` }, /invalid|at most|too big/i],
    ['an unknown field', { logo: 'https://x.example/l.png' }, /invalid|unrecognized/i],
  ])('refuses %s with 400 and writes nothing', async (_what, body, message) => {
    const before = { row: await stored(), audits: await audits() };
    const res = await as(a.owner).put('/operator/branding', body);
    expect(res.status).toBe(400);
    expect(`${res.body.error} ${JSON.stringify(res.body.details ?? '')}`).toMatch(message);
    expect(await stored()).toEqual(before.row);
    expect(await audits()).toBe(before.audits);
  });

  it('clears both with null, and refuses members (owner-only)', async () => {
    const member = await as(a.member).put('/operator/branding', { brandColor: null });
    expect(member.status).toBe(403);
    const res = await as(a.owner).put('/operator/branding', { brandColor: null, logoUrl: '' });
    expect(res.status).toBe(200);
    expect(await stored()).toEqual({ brandColor: null, logoUrl: null });
  });
});
