import pino from 'pino';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { MCP_TOOLS } from '../src/mcp/mcp-tools';
import { createMcpServer } from '../src/mcp/mcp.server';
import type { McpServices } from '../src/mcp/mcp.services';
import { strictAjv } from './json-schema';

/**
 * The tools' JSON Schemas as a client receives them (tools/list): each one a valid JSON Schema of the draft the MCP SDK
 * writes (draft-07, `$schema` says so), compilable by a strict validator, and free of the safe-integer range zod writes
 * for an unbounded `.int()` (±9007199254740991 reads like a limit and is none). Listing needs no database.
 */

const SAFE_BOUNDS = new Set([Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER]);
let tools: Tool[];

beforeAll(async () => {
  const server = createMcpServer({ logger: pino({ level: 'silent' }) } as unknown as McpServices);
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'schema-check', version: '1.0.0' });
  await client.connect(clientSide);
  ({ tools } = await client.listTools());
  await client.close();
});

/** Every `[path, value]` of a numeric keyword in a schema tree. */
function numericBounds(node: unknown, path = '#'): Array<[string, number]> {
  if (Array.isArray(node)) return node.flatMap((v, i) => numericBounds(v, `${path}/${i}`));
  if (node === null || typeof node !== 'object') return [];
  return Object.entries(node).flatMap(([k, v]) =>
    ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'].includes(k) && typeof v === 'number'
      ? [[`${path}/${k}`, v] as [string, number]]
      : numericBounds(v, `${path}/${k}`),
  );
}

describe('MCP tool schemas, as tools/list gives them', () => {
  it('lists every tool, each with an input and an output schema in draft-07', () => {
    expect(tools.map((t) => t.name).sort()).toEqual([...MCP_TOOLS].sort());
    for (const tool of tools) {
      expect(tool.inputSchema.$schema ?? 'http://json-schema.org/draft-07/schema#').toBe(
        'http://json-schema.org/draft-07/schema#',
      );
      expect(tool.outputSchema?.$schema).toBe('http://json-schema.org/draft-07/schema#');
    }
  });

  it.each([...MCP_TOOLS])(
    '%s: input and output schemas are valid against the JSON Schema meta-schema and compile strictly',
    (name) => {
      const tool = tools.find((t) => t.name === name)!;
      for (const schema of [tool.inputSchema, tool.outputSchema!]) {
        const ajv = strictAjv();
        const valid = ajv.validateSchema(schema);
        if (!valid) throw new Error(`${name}: ${ajv.errorsText(ajv.errors)}`);
        expect(() => ajv.compile(schema)).not.toThrow();
      }
    },
  );

  it.each([...MCP_TOOLS])('%s: no integer carries the safe-integer range as a bound', (name) => {
    const tool = tools.find((t) => t.name === name)!;
    const fake = [...numericBounds(tool.inputSchema), ...numericBounds(tool.outputSchema)].filter(([, v]) =>
      SAFE_BOUNDS.has(v),
    );
    expect(fake).toEqual([]);
  });

  it('gives the trip facts of a quote the bounds of the quote rules', () => {
    const quote = tools.find((t) => t.name === 'create_quote')!.outputSchema as unknown as {
      definitions: Record<string, { properties: Record<string, unknown> }>;
    };
    const trip = quote.definitions['TripSummary']!.properties;
    expect(trip['durationDays']).toMatchObject({ type: 'integer', minimum: 1, maximum: 365 });
    expect(trip['travelers']).toMatchObject({ type: 'integer', minimum: 1, maximum: 20 });
    expect(trip['travelerAges']).toMatchObject({ items: { type: 'integer', minimum: 0, maximum: 120 } });
    expect(quote.definitions['QuotePlan']!.properties['estimatedPremiumCents']).toMatchObject({
      type: 'integer',
      minimum: 0,
    });
  });
});
