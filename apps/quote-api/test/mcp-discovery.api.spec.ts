import { DestinationListSchema, PolicyLookupSchema, ProductListSchema, QUOTE_DISCLAIMER } from '@expedition/contracts';
import { MCP_TOOLS } from '../src/mcp/mcp-tools';
import { MCP_PROMPTS, MCP_RESOURCE_TEMPLATES } from '../src/mcp/mcp.resources';
import { McpPurchaseOutputSchema } from '../src/mcp/mcp.schemas';
import { PUBLIC_URL } from './harness';
import { server, client, useMcpHarness, ok, quote, fullPlan, spt, credentialFor, challengeOf } from './mcp-harness';

/** MCP at /mcp over real HTTP with the SDK's client: the server's instructions, tools, resources and prompts. */
useMcpHarness();

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
