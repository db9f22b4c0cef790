import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ValidateFunction } from 'ajv';
import type { z } from 'zod';
import { QuoteResponseSchema } from '@expedition/contracts';
import { listen, type RunningServer } from '@expedition/http-kit';
import { formatAuthorizationPayment, parsePaymentChallenges, type PaymentChallenge } from '@expedition/payments';
import type { McpPurchaseOutputSchema } from '../src/mcp/mcp.schemas';
import { antarcticaQuote, createHarness, type Harness } from './harness';
import { strictAjv } from './json-schema';

/**
 * What the MCP endpoint specs share: the app listening on a port of 15300–15349, the SDK's own client over real HTTP,
 * and call helpers that check every output against its zod contract and the tool's listed outputSchema. The `let`
 * exports are live: set by the hooks `useMcpHarness()` registers.
 */

const PORTS = { from: 15300, to: 15349 };

export async function listenInRange(app: Harness['app']): Promise<RunningServer> {
  for (let port = PORTS.from; port <= PORTS.to; port++) {
    try {
      return await listen(app, { port, host: '127.0.0.1' });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
    }
  }
  throw new Error('no free port in 15300–15349');
}

export let h: Harness;
export let server: RunningServer;
export let client: Client;
/** Each tool's outputSchema as tools/list gives it, compiled: every result below is checked against it too. */
let outputValidators: Map<string, ValidateFunction>;

export async function connect(url: string): Promise<Client> {
  const c = new Client({ name: 'quote-api-mcp-test', version: '1.0.0' });
  await c.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`)));
  return c;
}

/** Registers the file's hooks: a harness listening on a port, and a client connected to its /mcp. */
export function useMcpHarness(): void {
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
}

export const call = (name: string, args: Record<string, unknown> = {}) =>
  client.callTool({ name, arguments: args }) as Promise<CallToolResult>;

/** A successful call: structured content valid against the tool's zod contract and its listed outputSchema, and a non-empty text. */
export async function ok<S extends z.ZodType>(
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
export async function toolError(name: string, args: Record<string, unknown>): Promise<string> {
  const result = await call(name, args);
  expect(result.isError).toBe(true);
  const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
  expect(text).not.toMatch(/\n\s+at |\.ts:\d+|node_modules/);
  return text;
}

export async function quote(overrides: Record<string, unknown> = {}) {
  return ok(QuoteResponseSchema, 'create_quote', { ...antarcticaQuote, ...overrides });
}

export function fullPlan(q: z.infer<typeof QuoteResponseSchema>) {
  const plan = q.plans.find((p) => p.availabilityMode === 'full');
  if (!plan) throw new Error('fixture needs a plan bought online');
  return plan;
}

let sptCounter = 0;
export const spt = (kind: 'success' | 'decline') => `spt_test_${kind}_mcp_${++sptCounter}`;

/** What an agent's wallet sends: the challenge it got, echoed, with a Shared Payment Token (client helpers only). */
export function credentialFor(challenge: PaymentChallenge, token: string): string {
  return formatAuthorizationPayment({ challenge, payload: { spt: token } });
}

export function challengeOf(out: z.infer<typeof McpPurchaseOutputSchema>): PaymentChallenge {
  expect(out.outcome).toBe('payment_required');
  const { wwwAuthenticate, ...challenge } = out.challenge!;
  // The structured challenge is exactly the one in the WWW-Authenticate form of POST /api/v1/purchase.
  expect(parsePaymentChallenges(wwwAuthenticate)).toEqual([challenge]);
  return challenge;
}
