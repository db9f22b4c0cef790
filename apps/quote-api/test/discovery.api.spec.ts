import request from 'supertest';
import { agentRules, QUOTE_API_SANDBOX, QUOTE_DISCLAIMER } from '@expedition/contracts';
import { listDestinations } from '@expedition/domain-pricing';
import { antarcticaQuote, createHarness, PUBLIC_URL, type Harness } from './harness';

/** Discovery (issue 10 §5): /llms.txt, /.well-known/api-catalog (RFC 9727) and the links to them. */

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

const CATALOG_LINK = `<${PUBLIC_URL}/.well-known/api-catalog>; rel="api-catalog"`;

function expectPublicHeaders(res: request.Response) {
  expect(res.headers['link']).toBe(CATALOG_LINK);
  expect(res.headers['cache-control']).toBe('public, max-age=300');
  expect(res.headers['access-control-allow-origin']).toBe('*');
}

describe('GET /llms.txt', () => {
  it('answers text/plain with what the service is, every agent rule, the sandbox values and the links', async () => {
    const res = await request(h.app).get('/llms.txt');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expectPublicHeaders(res);
    const text = res.text;
    expect(text.startsWith('# Expedition Travel Insurance\n\n> ')).toBe(true);
    // llms.txt's shape: one H1, then free text, then H2 sections that are lists of links.
    expect(text.match(/^#+ .*$/gm)).toEqual(['# Expedition Travel Insurance', '## API']);
    expect(
      text
        .split('## API\n')[1]!
        .trim()
        .split('\n')
        .every((line) => /^- \[[^\]]+\]\(https?:\/\/[^)]+\)(: .+)?$/.test(line)),
    ).toBe(true);
    // The rules come from the contracts (generated, never copied): every one of them, numbered, with the disclaimer.
    agentRules({ destinations: listDestinations() }).forEach((rule, i) => expect(text).toContain(`${i + 1}. ${rule}`));
    expect(text).toContain(QUOTE_DISCLAIMER);
    expect(text).toContain('charges nothing');
    expect(text).toContain(String(QUOTE_API_SANDBOX.quoteRefusal.tripCost));
    expect(text).toContain(QUOTE_API_SANDBOX.quoteRefusal.email);
    expect(text).toContain(QUOTE_API_SANDBOX.declinedCard);
    expect(text).toContain(QUOTE_API_SANDBOX.declinedSptPrefix);
    expect(text).toContain('quote_expired');
    expect(text).toContain('Idempotency-Key');
    for (const href of ['/api/v1/openapi.json', '/mcp', '/.well-known/api-catalog', '/acp/v1/openapi.json'])
      expect(text).toContain(`](${PUBLIC_URL}${href})`);
  });

  it('answers HEAD with the same headers and no body', async () => {
    const res = await request(h.app).head('/llms.txt');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expectPublicHeaders(res);
    expect(res.text ?? '').toBe('');
  });
});

interface Linkset {
  linkset: ({ anchor: string } & Record<string, { href: string; type?: string; title?: string }[] | string>)[];
}

describe('GET /.well-known/api-catalog (RFC 9727)', () => {
  it('answers an application/linkset+json linkset with the RFC 9727 profile', async () => {
    const res = await request(h.app).get('/.well-known/api-catalog');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(
      /^application\/linkset\+json; profile="https:\/\/www\.rfc-editor\.org\/info\/rfc9727"/,
    );
    expectPublicHeaders(res);
    const body = JSON.parse(res.text) as Linkset;
    const byAnchor = new Map(body.linkset.map((c) => [c.anchor, c]));

    const catalog = byAnchor.get(`${PUBLIC_URL}/.well-known/api-catalog`)!;
    expect(catalog['item']).toEqual([
      { href: `${PUBLIC_URL}/api/v1`, title: 'Quoting API' },
      { href: `${PUBLIC_URL}/mcp`, title: 'MCP server' },
      { href: `${PUBLIC_URL}/acp/v1`, title: 'Agentic Commerce Protocol checkout' },
    ]);
    const api = byAnchor.get(`${PUBLIC_URL}/api/v1`)!;
    expect(api['service-desc']).toEqual([
      { href: `${PUBLIC_URL}/api/v1/openapi.json`, type: 'application/vnd.oai.openapi+json;version=3.1' },
    ]);
    expect(api['service-doc']).toEqual([{ href: `${PUBLIC_URL}/llms.txt`, type: 'text/plain' }]);
    expect(api['status']).toEqual([{ href: `${PUBLIC_URL}/healthz`, type: 'application/json' }]);
    const mcp = byAnchor.get(`${PUBLIC_URL}/mcp`)!;
    expect(mcp['service-doc']).toEqual([{ href: `${PUBLIC_URL}/llms.txt`, type: 'text/plain' }]);
    const acp = byAnchor.get(`${PUBLIC_URL}/acp/v1`)!;
    expect(acp['service-desc']).toEqual([
      { href: `${PUBLIC_URL}/acp/v1/openapi.json`, type: 'application/vnd.oai.openapi+json;version=3.1' },
    ]);
    expect(body.linkset).toHaveLength(4);
  });

  it('points only at documents this app serves', async () => {
    const body = JSON.parse((await request(h.app).get('/.well-known/api-catalog')).text) as Linkset;
    const hrefs = body.linkset.flatMap((c) =>
      Object.values(c).flatMap((v) => (Array.isArray(v) ? v.map((l) => l.href) : [])),
    );
    for (const href of hrefs.filter((x) => !x.endsWith('/mcp') && !x.endsWith('/api/v1') && !x.endsWith('/acp/v1'))) {
      const res = await request(h.app).get(new URL(href).pathname);
      expect([href, res.status]).toEqual([href, 200]);
    }
  });

  it('answers HEAD with the Link header (rel="api-catalog") and no body', async () => {
    const res = await request(h.app).head('/.well-known/api-catalog');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/linkset\+json/);
    expectPublicHeaders(res);
    expect(res.text ?? '').toBe('');
  });
});

describe('GET /llms.txt: after the sale', () => {
  it('says exactly when the traveler gets an e-mail, and what to do when none is sent', async () => {
    const text = (await request(h.app).get('/llms.txt')).text;
    expect(text).toContain('one confirmation e-mail (certificate attached, link to the policy page)');
    expect(text).toContain('with no address, no e-mail is sent');
  });
});

describe('links to the discovery documents', () => {
  it('the OpenAPI document names both documents and the MCP endpoint', async () => {
    const doc = (await request(h.app).get('/api/v1/openapi.json')).body as { info: { description: string } };
    for (const path of ['`/llms.txt`', '`/.well-known/api-catalog`', '`/mcp`'])
      expect(doc.info.description).toContain(path);
  });

  it('the human checkout pages carry no footer for AI agents (people read them; agents find the documents above)', async () => {
    const quote = (await request(h.app).post('/api/v1/quotes').send(antarcticaQuote)).body as {
      quoteId: string;
      sessionId: string;
      plans: { planId: string }[];
    };
    const link = await request(h.app)
      .post('/api/v1/checkout')
      .send({ quoteId: quote.quoteId, planId: quote.plans[0]!.planId, sessionId: quote.sessionId });
    const open = await request(h.app).get(new URL(link.body.checkoutUrl).pathname);
    const unknown = await request(h.app).get('/checkout/cs_unknownunknownunknownunknown');
    expect([open.status, unknown.status]).toEqual([200, 404]);
    for (const page of [open, unknown]) {
      expect(page.text).not.toContain('<footer>');
      expect(page.text).not.toContain('For AI agents');
      expect(page.text).not.toContain('/llms.txt');
    }
  });
});
