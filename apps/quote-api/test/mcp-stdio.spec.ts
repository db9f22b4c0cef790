import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CheckoutResponseSchema, DestinationListSchema, QuoteResponseSchema } from '@expedition/contracts';
import { MCP_TOOLS } from '../src/mcp/mcp-tools';
import { MCP_PROMPTS, MCP_RESOURCE_TEMPLATES } from '../src/mcp/mcp.resources';
import { antarcticaQuote } from './harness';
import { strictAjv } from './json-schema';

/**
 * quote-api's stdio MCP server spawned as a child process and driven with the official SDK's stdio client: the built
 * entry (`node dist/apps/quote-api/mcp.js`, what a desktop agent runs) when `nx run quote-api:build-server` made it,
 * else the source entry `npm run mcp` runs (tsx), so that CI, which tests before it builds, always runs it.
 */
const ROOT = path.resolve(__dirname, '../../..');
const BUILT = path.join(ROOT, 'dist/apps/quote-api/mcp.js');
const entry = existsSync(BUILT)
  ? { name: 'the built mcp.js', args: [BUILT] }
  : {
      name: 'the source entry of npm run mcp',
      args: [
        path.join(ROOT, 'node_modules/tsx/dist/cli.mjs'),
        '--tsconfig',
        path.join(ROOT, 'tools/tsconfig.json'),
        path.join(ROOT, 'apps/quote-api/src/mcp/stdio.main.ts'),
      ],
    };

describe(`quote-api MCP over stdio (${entry.name})`, () => {
  let dataDir: string;
  let client: Client;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'quote-api-mcp-stdio-'));
    const env: Record<string, string> = {
      PATH: process.env['PATH'] ?? '',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      QUOTE_API_URL: 'http://quote.test',
    };
    client = new Client({ name: 'quote-api-stdio-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: entry.args, env, cwd: ROOT, stderr: 'pipe' }),
    );
  }, 120_000);

  afterAll(async () => {
    await client?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('lists every tool, get_policy included, and answers a tool call with valid structured content', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...MCP_TOOLS].sort());
    const result = await client.callTool({ name: 'list_destinations', arguments: {} });
    expect(result.isError).toBeFalsy();
    const destinations = DestinationListSchema.parse(result.structuredContent);
    expect(destinations.destinations.map((d) => d.slug)).toContain('antarctica');
  });

  it('runs quote → checkout link: the recommended plan first, a link on QUOTE_API_URL, valid against the listed outputSchemas', async () => {
    const { tools } = await client.listTools();
    const ajv = strictAjv();
    const check = (name: string, out: unknown) => {
      const validate = ajv.compile(tools.find((t) => t.name === name)!.outputSchema!);
      if (!validate(out)) throw new Error(`${name}: ${JSON.stringify(validate.errors)}`);
    };
    const quoted = await client.callTool({ name: 'create_quote', arguments: antarcticaQuote });
    expect(quoted.isError).toBeFalsy();
    check('create_quote', quoted.structuredContent);
    const q = QuoteResponseSchema.parse(quoted.structuredContent);
    expect(q.plans[0]!.isRecommended).toBe(true);
    const plan = q.plans.find((p) => p.availabilityMode === 'full')!;
    const link = await client.callTool({
      name: 'create_checkout_link',
      arguments: { quoteId: q.quoteId, planId: plan.planId, sessionId: q.sessionId },
    });
    expect(link.isError).toBeFalsy();
    check('create_checkout_link', link.structuredContent);
    expect(CheckoutResponseSchema.parse(link.structuredContent).checkoutUrl).toMatch(
      /^http:\/\/quote\.test\/checkout\/cs_/,
    );
  });

  it("offers the resources (a plan's wording, HTML and PDF) and the quote_conversation prompt", async () => {
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate).sort()).toEqual(Object.values(MCP_RESOURCE_TEMPLATES).sort());
    const wording = (await client.listResources()).resources.find((r) => r.uri.startsWith('expedition://plans/'))!;
    const { contents } = await client.readResource({ uri: wording.uri });
    expect(contents.map((c) => c.mimeType)).toEqual(['text/html', 'application/pdf']);
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual([...MCP_PROMPTS]);
    const prompt = await client.getPrompt({ name: 'quote_conversation', arguments: {} });
    expect((prompt.messages[0]!.content as { text: string }).text).toContain('recommended plan first');
  });
});
