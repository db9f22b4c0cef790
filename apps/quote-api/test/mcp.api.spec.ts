import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ValidateFunction } from 'ajv';
import type { z } from 'zod';
import {
  CheckoutResponseSchema,
  CoverageGapResponseSchema,
  DestinationListSchema,
  PlanDetailsSchema,
  PolicyLookupSchema,
  ProductListSchema,
  QUOTE_DISCLAIMER,
  QuoteResponseSchema,
} from '@expedition/contracts';
import { createRateLimiter } from '@expedition/platform';
import { listen, type RunningServer } from '@expedition/http-kit';
import {
  decodeRequest,
  formatAuthorizationPayment,
  parsePaymentChallenges,
  parsePaymentReceipt,
  type PaymentChallenge,
} from '@expedition/payments';
import { MCP_TOOLS } from '../src/mcp/mcp-tools';
import { MCP_PROMPTS, MCP_RESOURCE_TEMPLATES } from '../src/mcp/mcp.resources';
import { McpPurchaseOutputSchema } from '../src/mcp/mcp.schemas';
import { antarcticaQuote, createHarness, PUBLIC_URL, type Harness } from './harness';
import { strictAjv } from './json-schema';

/**
 * The MCP endpoint with the SDK's own client over real HTTP (the app listening on a port of 15300–15349): every tool,
 * every output against its zod contract, the two buying journeys, and errors as MCP tool errors.
 */

const PORTS = { from: 15300, to: 15349 };

async function listenInRange(app: Harness['app']): Promise<RunningServer> {
  for (let port = PORTS.from; port <= PORTS.to; port++) {
    try {
      return await listen(app, { port, host: '127.0.0.1' });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
    }
  }
  throw new Error('no free port in 15300–15349');
}

let h: Harness;
let server: RunningServer;
let client: Client;
/** Each tool's outputSchema as tools/list gives it, compiled: every result below is checked against it too. */
let outputValidators: Map<string, ValidateFunction>;

async function connect(url: string): Promise<Client> {
  const c = new Client({ name: 'quote-api-mcp-test', version: '1.0.0' });
  await c.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`)));
  return c;
}

beforeAll(async () => {
  h = await createHarness();
  server = await listenInRange(h.app);
  client = await connect(server.url);
  const ajv = strictAjv();
  const { tools } = await client.listTools();
  outputValidators = new Map(tools.map((t) => [t.name, ajv.compile(t.outputSchema!)]));
});
afterAll(async () => {
  await client?.close();
  await server?.close(0);
  await h?.close();
});

const call = (name: string, args: Record<string, unknown> = {}) =>
  client.callTool({ name, arguments: args }) as Promise<CallToolResult>;

/** A successful call: structured content valid against the tool's zod contract and its listed outputSchema, and a non-empty text. */
async function ok<S extends z.ZodType>(
  schema: S,
  name: string,
  args: Record<string, unknown> = {},
): Promise<z.infer<S>> {
  const result = await call(name, args);
  expect(result.isError).toBeFalsy();
  const text = result.content.find((c) => c.type === 'text');
  expect(text && text.type === 'text' && text.text.length).toBeGreaterThan(0);
  const parsed = schema.safeParse(result.structuredContent);
  if (!parsed.success) throw new Error(`${name} output does not match its schema: ${parsed.error.message}`);
  const validate = outputValidators.get(name)!;
  if (!validate(result.structuredContent))
    throw new Error(`${name} output does not match its listed outputSchema: ${JSON.stringify(validate.errors)}`);
  return parsed.data;
}

/** A failed call: an MCP tool error whose text is useful and holds no stack trace. */
async function toolError(name: string, args: Record<string, unknown>): Promise<string> {
  const result = await call(name, args);
  expect(result.isError).toBe(true);
  const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
  expect(text).not.toMatch(/\n\s+at |\.ts:\d+|node_modules/);
  return text;
}

async function quote(overrides: Record<string, unknown> = {}) {
  return ok(QuoteResponseSchema, 'create_quote', { ...antarcticaQuote, ...overrides });
}

function fullPlan(q: z.infer<typeof QuoteResponseSchema>) {
  const plan = q.plans.find((p) => p.availabilityMode === 'full');
  if (!plan) throw new Error('fixture needs a plan bought online');
  return plan;
}

let sptCounter = 0;
const spt = (kind: 'success' | 'decline') => `spt_test_${kind}_mcp_${++sptCounter}`;

/** What an agent's wallet sends: the challenge it got, echoed, with a Shared Payment Token (client helpers only). */
function credentialFor(challenge: PaymentChallenge, token: string): string {
  return formatAuthorizationPayment({ challenge, payload: { spt: token } });
}

function challengeOf(out: z.infer<typeof McpPurchaseOutputSchema>): PaymentChallenge {
  expect(out.outcome).toBe('payment_required');
  const { wwwAuthenticate, ...challenge } = out.challenge!;
  // The structured challenge is exactly the one in the WWW-Authenticate form of POST /api/v1/purchase.
  expect(parsePaymentChallenges(wwwAuthenticate)).toEqual([challenge]);
  return challenge;
}

describe('MCP at /mcp: discovery', () => {
  it('names the server and gives the agent rules as instructions', () => {
    expect(client.getServerVersion()?.name).toBe('expedition-insurance');
    const instructions = client.getInstructions() ?? '';
    expect(instructions).toContain('Antarctica 14 days');
    expect(instructions).toContain('70');
    expect(instructions).toContain(QUOTE_DISCLAIMER);
  });

  it('lists every tool with input and output schemas, annotations and the rules for agents', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...MCP_TOOLS].sort());
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
      expect(tool.description?.length).toBeGreaterThan(40);
      const a = tool.annotations!;
      for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const)
        expect(typeof a[hint]).toBe('boolean');
    }
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    for (const name of ['list_destinations', 'list_plans', 'get_plan', 'coverage_gap'])
      expect(byName[name]!.annotations!.readOnlyHint).toBe(true);
    for (const name of ['create_quote', 'create_checkout_link', 'purchase'])
      expect(byName[name]!.annotations!.readOnlyHint).toBe(false);
    expect(byName['purchase']!.annotations).toMatchObject({ destructiveHint: true, openWorldHint: true });
    expect(byName['create_checkout_link']!.annotations!.destructiveHint).toBe(false);

    const quoteDoc = byName['create_quote']!.description!;
    expect(quoteDoc).toMatch(
      /\(1\) destination.*\(2\) departure date.*\(3\).*age.*\(4\) total trip cost.*\(5\) country of residence/s,
    );
    expect(quoteDoc).toContain('Antarctica 14 days');
    expect(quoteDoc).toContain('70 and over');
    expect(quoteDoc).toContain('recommended plan first');
    expect(quoteDoc).toContain('disclaimer');
    expect(byName['create_checkout_link']!.description).toMatch(/charges nothing.*a person pays there/s);
    expect(byName['create_quote']!.inputSchema.required).toEqual(
      expect.arrayContaining(['destination', 'startDate', 'durationDays', 'travelerAges']),
    );
    expect(byName['purchase']!.inputSchema.properties).toHaveProperty('credential');
    expect(byName['get_policy']!.annotations).toMatchObject({
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
    });
    expect(byName['get_policy']!.inputSchema.required).toEqual(['policyNumber', 'accessToken']);
  });

  it('offers the disclaimer, the agent rules and the destinations as resources', async () => {
    const { resources } = await client.listResources();
    const fixed = resources.map((r) => r.uri).filter((u) => !u.startsWith('expedition://plans/'));
    expect(fixed.sort()).toEqual(['expedition://agent-rules', 'expedition://destinations', 'expedition://disclaimer']);
    const disclaimer = await client.readResource({ uri: 'expedition://disclaimer' });
    expect(disclaimer.contents[0]).toMatchObject({ text: QUOTE_DISCLAIMER });
    const destinations = await client.readResource({ uri: 'expedition://destinations' });
    const parsed = DestinationListSchema.parse(JSON.parse(String((destinations.contents[0] as { text: string }).text)));
    expect(parsed.destinations.map((d) => d.slug)).toContain('antarctica');
  });
});

describe('MCP at /mcp: resources and prompts', () => {
  it("lists the two templates, and every plan's wording as a resource", async () => {
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate).sort()).toEqual(
      [MCP_RESOURCE_TEMPLATES.policy, MCP_RESOURCE_TEMPLATES.wording].sort(),
    );
    const { resources } = await client.listResources();
    const { plans } = await ok(ProductListSchema, 'list_plans');
    expect(
      resources
        .filter((r) => r.uri.startsWith('expedition://plans/'))
        .map((r) => r.uri)
        .sort(),
    ).toEqual(plans.map((p) => `expedition://plans/${p.id}/wording`).sort());
  });

  it("reads a plan's wording: the HTML of /policy-wording/{planId} and its PDF", async () => {
    const { plans } = await ok(ProductListSchema, 'list_plans', { destination: 'antarctica' });
    const plan = plans[0]!;
    const { contents } = await client.readResource({ uri: `expedition://plans/${plan.id}/wording` });
    const [html, pdf] = contents as Array<{ uri: string; mimeType: string; text?: string; blob?: string }>;
    expect(html).toMatchObject({ uri: `expedition://plans/${plan.id}/wording`, mimeType: 'text/html' });
    expect(html!.text).toBe(await (await fetch(`${server.url}/policy-wording/${plan.id}`)).text());
    expect(pdf).toMatchObject({ uri: `${PUBLIC_URL}/policy-wording/${plan.id}.pdf`, mimeType: 'application/pdf' });
    expect(Buffer.from(pdf!.blob!, 'base64').subarray(0, 5).toString()).toBe('%PDF-');
    await expect(client.readResource({ uri: 'expedition://plans/no-such-plan/wording' })).rejects.toThrow(
      /no plan "no-such-plan"/,
    );
  });

  it('reads a policy by number and access token; a wrong token is the same not-found as an unknown number', async () => {
    const q = await quote();
    const plan = fullPlan(q);
    const challenge = challengeOf(
      await ok(McpPurchaseOutputSchema, 'purchase', { quoteId: q.quoteId, planId: plan.planId }),
    );
    const paid = await ok(McpPurchaseOutputSchema, 'purchase', {
      quoteId: q.quoteId,
      planId: plan.planId,
      credential: credentialFor(challenge, spt('success')),
    });
    const { policyNumber, accessToken } = paid.receipt!;
    const uri = `expedition://policies/${policyNumber}?access_token=${accessToken}`;
    const { contents } = await client.readResource({ uri });
    expect(contents[0]).toMatchObject({ uri, mimeType: 'application/json' });
    const policy = PolicyLookupSchema.parse(JSON.parse(String((contents[0] as { text: string }).text)));
    expect(policy).toEqual(await ok(PolicyLookupSchema, 'get_policy', { policyNumber, accessToken }));
    // One at a time: a second request started before the first is awaited rejects with no handler attached yet (an
    // unhandled rejection that fails the test whenever it loses the race).
    const wrongToken = `${accessToken!.slice(0, -2)}${accessToken!.endsWith('zz') ? 'yy' : 'zz'}`;
    await expect(
      client.readResource({ uri: `expedition://policies/${policyNumber}?access_token=${wrongToken}` }),
    ).rejects.toThrow('no policy with this number and access token');
    await expect(
      client.readResource({ uri: `expedition://policies/POL-2026-ZZZZZZ?access_token=${accessToken}` }),
    ).rejects.toThrow('no policy with this number and access token');
  });

  it('offers the quote_conversation prompt: question order, default durations, ages 70+, recommended first, the disclaimer', async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual([...MCP_PROMPTS]);
    expect(prompts[0]!.arguments).toEqual([expect.objectContaining({ name: 'traveler_request', required: false })]);
    const { messages } = await client.getPrompt({
      name: 'quote_conversation',
      arguments: { traveler_request: 'Antarctica in January, two of us' },
    });
    expect(messages).toHaveLength(1);
    const text = (messages[0]!.content as { text: string }).text;
    expect(messages[0]!.role).toBe('user');
    expect(text).toMatch(
      /\(1\) destination.*\(2\) departure date.*\(3\).*age.*\(4\) total trip cost.*\(5\) country of residence/s,
    );
    expect(text).toContain('Antarctica 14 days');
    expect(text).toContain('70 and over');
    expect(text).toMatch(/recommended plan first.*create_checkout_link/s);
    expect(text).toContain(QUOTE_DISCLAIMER);
    expect(text).toContain('What I have said so far: Antarctica in January, two of us');
    expect(
      (await client.getPrompt({ name: 'quote_conversation', arguments: {} })).messages[0]!.content,
    ).not.toHaveProperty('text', expect.stringContaining('said so far'));
  });
});

describe('MCP at /mcp: read-only tools', () => {
  it('list_destinations matches GET /api/v1/destinations', async () => {
    const out = await ok(DestinationListSchema, 'list_destinations');
    const api = await (await fetch(`${server.url}/api/v1/destinations`)).json();
    expect(out).toEqual(api);
  });

  it('list_plans filters like GET /api/v1/products', async () => {
    const all = await ok(ProductListSchema, 'list_plans');
    const antarctica = await ok(ProductListSchema, 'list_plans', { destination: 'antarctica' });
    expect(antarctica.destination).toBe('antarctica');
    expect(antarctica.plansCount).toBe(antarctica.plans.length);
    expect(antarctica.plansCount).toBeLessThanOrEqual(all.plansCount);
    const api = await (await fetch(`${server.url}/api/v1/products?destination=antarctica`)).json();
    expect(antarctica).toEqual(api);
  });

  it('get_plan returns the plan details', async () => {
    const { plans } = await ok(ProductListSchema, 'list_plans', { destination: 'antarctica' });
    const details = await ok(PlanDetailsSchema, 'get_plan', { planId: plans[0]!.id });
    expect(details.planId).toBe(plans[0]!.id);
  });

  it('coverage_gap compares a credit card and carries the disclaimer', async () => {
    const out = await ok(CoverageGapResponseSchema, 'coverage_gap', {
      destination: 'antarctica',
      creditCardName: 'Chase Sapphire Reserve',
      tripCost: 24000,
    });
    expect(out.destination.slug).toBe('antarctica');
    expect(out.disclaimer).toBe(QUOTE_DISCLAIMER);
  });
});

describe('MCP at /mcp: quote → checkout link', () => {
  it('quotes with the recommended plan first and the disclaimer, then opens a link that charges nothing', async () => {
    const q = await quote();
    expect(q.plans[0]!.isRecommended).toBe(true);
    expect(q.recommendedPlanId).toBe(q.plans[0]!.planId);
    expect(q.disclaimer).toBe(QUOTE_DISCLAIMER);
    const quoteRow = await h.db.prisma.quote.findUniqueOrThrow({ where: { id: q.quoteId } });
    expect(quoteRow.source).toBe('api');

    const link = await ok(CheckoutResponseSchema, 'create_checkout_link', {
      quoteId: q.quoteId,
      planId: fullPlan(q).planId,
      sessionId: q.sessionId,
    });
    expect(link.checkoutUrl).toMatch(new RegExp(`^${PUBLIC_URL}/checkout/cs_[A-Za-z0-9_-]{20,}$`));
    expect(new Date(link.expiresAt!).getTime() - h.clock.now().getTime()).toBe(30 * 60 * 1000);
    expect(await h.db.prisma.payment.count({ where: { quoteId: q.quoteId } })).toBe(0);
    expect(await h.db.prisma.purchase.count({ where: { quoteId: q.quoteId } })).toBe(0);
  });

  it("records the traveler's language given as create_quote's `locale` (fr-CA → fr), English without it", async () => {
    const q = await quote({ locale: 'fr-CA' });
    expect(q.locale).toBe('fr');
    expect((await h.db.prisma.quote.findUniqueOrThrow({ where: { id: q.quoteId } })).locale).toBe('fr');
    expect((await quote()).locale).toBe('en');
  });

  it("refuses a link for a sessionId that is not the quote's", async () => {
    const q = await quote();
    const text = await toolError('create_checkout_link', {
      quoteId: q.quoteId,
      planId: fullPlan(q).planId,
      sessionId: 'not-the-session',
    });
    expect(text).toContain('session_mismatch');
  });
});

describe('MCP at /mcp: quote → 402 challenge → credential → receipt', () => {
  it('answers the challenge as data, then completes the purchase with the credential, once', async () => {
    const q = await quote();
    const plan = fullPlan(q);
    const first = await ok(McpPurchaseOutputSchema, 'purchase', { quoteId: q.quoteId, planId: plan.planId });
    const challenge = challengeOf(first);
    expect(first.amountCents).toBe(plan.estimatedPremiumCents);
    expect(first.problem).toMatchObject({
      type: 'https://paymentauth.org/problems/payment-required',
      status: 402,
      challengeId: challenge.id,
    });
    expect(decodeRequest(challenge.request)).toMatchObject({
      amount: String(plan.estimatedPremiumCents),
      currency: 'usd',
      externalId: q.quoteId,
    });
    expect(await h.db.prisma.purchase.count({ where: { quoteId: q.quoteId } })).toBe(0);

    const paid = await ok(McpPurchaseOutputSchema, 'purchase', {
      quoteId: q.quoteId,
      planId: plan.planId,
      credential: credentialFor(challenge, spt('success')),
    });
    expect(paid.outcome).toBe('purchased');
    expect(paid.receipt).toMatchObject({
      status: 'purchased',
      quoteId: q.quoteId,
      planId: plan.planId,
      amountChargedCents: plan.estimatedPremiumCents,
    });
    expect(paid.receipt!.paymentReference).toBeTruthy();
    expect(parsePaymentReceipt(paid.paymentReceipt!)).toMatchObject({
      status: 'success',
      method: 'stripe',
      reference: paid.receipt!.paymentReference,
    });
    expect(await h.db.prisma.purchase.count({ where: { quoteId: q.quoteId } })).toBe(1);
    expect(await h.db.prisma.policy.count({ where: { quoteId: q.quoteId } })).toBe(1);

    // The same call again (a lost answer): already paid, no second charge, no processor reference.
    const again = await ok(McpPurchaseOutputSchema, 'purchase', {
      quoteId: q.quoteId,
      planId: plan.planId,
      credential: credentialFor(challenge, spt('success')),
    });
    expect(again.outcome).toBe('already_paid');
    expect(again.receipt!.paymentReference).toBeUndefined();
    expect(await h.db.prisma.payment.count({ where: { quoteId: q.quoteId } })).toBe(1);
  });

  it('puts the policy token on the receipt, and get_policy shows the policy to its holder only (one not-found error)', async () => {
    const q = await quote();
    const plan = fullPlan(q);
    const challenge = challengeOf(
      await ok(McpPurchaseOutputSchema, 'purchase', { quoteId: q.quoteId, planId: plan.planId }),
    );
    const credential = credentialFor(challenge, spt('success'));
    const paid = await ok(McpPurchaseOutputSchema, 'purchase', { quoteId: q.quoteId, planId: plan.planId, credential });
    const { policyNumber, accessToken, documentUrl } = paid.receipt!;
    expect(accessToken).toMatch(/^pat_/);
    expect(documentUrl).toBe(
      `${PUBLIC_URL}/api/v1/policies/${policyNumber}/certificate.pdf?access_token=${encodeURIComponent(accessToken!)}`,
    );
    // A lost answer, retried with the very credential that paid: the token again (already_paid).
    const retried = await ok(McpPurchaseOutputSchema, 'purchase', {
      quoteId: q.quoteId,
      planId: plan.planId,
      credential,
    });
    expect(retried.receipt).toMatchObject({ status: 'already_paid', accessToken, documentUrl });

    const policy = await ok(PolicyLookupSchema, 'get_policy', { policyNumber, accessToken });
    expect(policy).toMatchObject({
      policyNumber,
      mode: 'test',
      plan: { planId: plan.planId },
      premiumCents: plan.estimatedPremiumCents,
      documentUrl,
      disclaimer: QUOTE_DISCLAIMER,
    });
    expect(policy.travelers.ages).toEqual(antarcticaQuote.travelerAges);

    const wrong = await toolError('get_policy', { policyNumber, accessToken: `${accessToken!.slice(0, -2)}zz` });
    const unknown = await toolError('get_policy', { policyNumber: 'POL-2026-ZZZZZZ', accessToken });
    expect(wrong).toContain('No policy matches this policy number and access token');
    expect(unknown).toBe(wrong);
  });

  it('accepts the bare base64url credential as well as the "Payment …" form', async () => {
    const q = await quote();
    const plan = fullPlan(q);
    const challenge = challengeOf(
      await ok(McpPurchaseOutputSchema, 'purchase', { quoteId: q.quoteId, planId: plan.planId }),
    );
    const bare = credentialFor(challenge, spt('success')).replace(/^Payment /, '');
    const paid = await ok(McpPurchaseOutputSchema, 'purchase', {
      quoteId: q.quoteId,
      planId: plan.planId,
      credential: bare,
    });
    expect(paid.outcome).toBe('purchased');
  });

  it('answers a declined token with a fresh challenge and charges nothing', async () => {
    const q = await quote();
    const plan = fullPlan(q);
    const challenge = challengeOf(
      await ok(McpPurchaseOutputSchema, 'purchase', { quoteId: q.quoteId, planId: plan.planId }),
    );
    const declined = await ok(McpPurchaseOutputSchema, 'purchase', {
      quoteId: q.quoteId,
      planId: plan.planId,
      credential: credentialFor(challenge, spt('decline')),
    });
    expect(declined.problem?.type).toBe('https://paymentauth.org/problems/verification-failed');
    expect(challengeOf(declined).id).not.toBe(challenge.id);
    expect(await h.db.prisma.purchase.count({ where: { quoteId: q.quoteId } })).toBe(0);
  });

  it('answers a malformed credential with a challenge, never a charge', async () => {
    const q = await quote();
    const out = await ok(McpPurchaseOutputSchema, 'purchase', {
      quoteId: q.quoteId,
      planId: fullPlan(q).planId,
      credential: 'Payment not-base64-json',
    });
    expect(out.outcome).toBe('payment_required');
    expect(out.problem?.type).toBe('https://paymentauth.org/problems/malformed-credential');
  });
});

describe('MCP at /mcp: errors are tool errors with useful text', () => {
  it('unknown quote, unknown plan, unknown destination', async () => {
    expect(await toolError('purchase', { quoteId: '7d1f2c3a-1111-4222-8333-944455556666', planId: 'x' })).toContain(
      'quote_not_found',
    );
    expect(await toolError('get_plan', { planId: 'no-such-plan' })).toContain('plan_not_found');
    const text = await toolError('list_plans', { destination: 'atlantis' });
    expect(text).toContain('unknown_destination');
    expect(text).toContain('antarctica');
    const q = await quote();
    expect(
      await toolError('create_checkout_link', { quoteId: q.quoteId, planId: 'no-such-plan', sessionId: q.sessionId }),
    ).toContain('invalid_plan');
  });

  it('invalid input names the fields', async () => {
    expect(await toolError('create_quote', { destination: 'Antarctica' })).toMatch(/startDate/);
    const past = await toolError('create_quote', { ...antarcticaQuote, startDate: '2020-01-01' });
    expect(past).toContain('startDate');
    const ages = await toolError('create_quote', { ...antarcticaQuote, travelerAges: [45] });
    expect(ages).toContain('travelerAges');
  });

  it('an internal failure says so without its message or stack', async () => {
    const q = await quote();
    const plan = fullPlan(q);
    const challenge = challengeOf(
      await ok(McpPurchaseOutputSchema, 'purchase', { quoteId: q.quoteId, planId: plan.planId }),
    );
    const settle = h.processor.settleSharedPaymentToken;
    h.processor.settleSharedPaymentToken = async () => {
      throw new Error('secret internal detail');
    };
    try {
      const text = await toolError('purchase', {
        quoteId: q.quoteId,
        planId: plan.planId,
        credential: credentialFor(challenge, spt('success')),
      });
      expect(text).toMatch(/^Internal error in purchase; try again in a moment\. Reference: \S+\.$/);
      expect(text).not.toContain('secret internal detail');
    } finally {
      h.processor.settleSharedPaymentToken = settle;
    }
  });
});

describe('MCP at /mcp: HTTP', () => {
  it('answers GET and DELETE with 405 and Allow: POST (stateless endpoint)', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(`${server.url}/mcp`, { method });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
      expect(await res.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 } });
    }
  });

  const post = (body: string, contentType = 'application/json') =>
    fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': contentType, accept: 'application/json, text/event-stream' },
      body,
    });

  /** A JSON-RPC 2.0 error object, never the REST error body; its request id matches X-Request-Id. */
  async function expectJsonRpcError(res: Response, status: number, code: number) {
    expect(res.status).toBe(status);
    const body = await res.json();
    expect(body).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code, message: expect.any(String), data: { requestId: res.headers.get('x-request-id') } },
    });
    return body as { error: { message: string } };
  }

  it('answers malformed JSON with a JSON-RPC parse error: 400, code -32700, id null', async () => {
    await expectJsonRpcError(await post('{"jsonrpc":"2.0","id":1,"method":'), 400, -32700);
    await expectJsonRpcError(await post('not json at all'), 400, -32700);
  });

  it.each([
    ['an empty object', '{}'],
    ['a bare string', '"ping"'],
    ['an empty batch', '[]'],
    ['a wrong jsonrpc version', '{"jsonrpc":"1.0","id":1,"method":"ping"}'],
    ['a method that is not a string', '{"jsonrpc":"2.0","id":1,"method":42}'],
  ])('answers %s with a JSON-RPC invalid request: 400, code -32600, id null', async (_what, body) => {
    await expectJsonRpcError(await post(body), 400, -32600);
  });

  it('answers a string PostgreSQL cannot store with -32600 naming the field', async () => {
    const body = await expectJsonRpcError(
      await post('{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"a\\u0000b"}}'),
      400,
      -32600,
    );
    expect(body.error.message).toMatch(/params\.x/);
  });

  it('answers a charset other than UTF-8 with 415 and a JSON-RPC error', async () => {
    await expectJsonRpcError(
      await post('{"jsonrpc":"2.0","id":1,"method":"ping"}', 'application/json; charset=utf-16'),
      415,
      -32000,
    );
  });

  it('shares the per-client rate limit of /api/v1 (429 with Retry-After)', async () => {
    const limited = await createHarness({
      rateLimiter: createRateLimiter({ points: 2, durationSec: 60 }),
      rateLimitPerMinute: 2,
    });
    const running = await listenInRange(limited.app);
    try {
      const ping = () =>
        fetch(`${running.url}/mcp`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
        });
      const first = await ping();
      expect(first.status).toBe(200);
      expect(first.headers.get('ratelimit-limit')).toBe('2');
      expect(await first.json()).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
      expect((await fetch(`${running.url}/api/v1/destinations`)).status).toBe(200);
      const third = await ping();
      expect(third.status).toBe(429);
      expect(third.headers.get('retry-after')).toMatch(/^\d+$/);
    } finally {
      await running.close(0);
      await limited.close();
    }
  });
});

describe('MCP at /mcp: an expired quote', () => {
  it('tells the agent to quote again, for a link and for a purchase', async () => {
    const q = await quote();
    const plan = fullPlan(q);
    // Last test of the file: the clock only moves forward.
    h.clock.advance(new Date(q.expiresAt!).getTime() - h.clock.now().getTime() + 1000);
    const link = await toolError('create_checkout_link', {
      quoteId: q.quoteId,
      planId: plan.planId,
      sessionId: q.sessionId,
    });
    expect(link).toContain('quote_expired');
    expect(link).toContain('create_quote');
    const bought = await toolError('purchase', { quoteId: q.quoteId, planId: plan.planId });
    expect(bought).toContain('quote_expired');
    expect(await h.db.prisma.paymentChallenge.count({ where: { quoteId: q.quoteId } })).toBe(0);
  });
});
