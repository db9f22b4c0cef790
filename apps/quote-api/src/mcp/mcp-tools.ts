import { formatMoney } from '@expedition/contracts/rules';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { AppError, type FailureLog } from '@expedition/http-kit';
import type { McpServices } from './mcp.services';

/** The tool names, stable: agents and their hosts remember them. tools/list answers them in this order. */
export const MCP_TOOLS = [
  'list_destinations',
  'list_plans',
  'get_plan',
  'create_quote',
  'coverage_gap',
  'create_checkout_link',
  'purchase',
  'get_policy',
] as const;
export type McpToolName = (typeof MCP_TOOLS)[number];

/** Runs a tool: structured content plus a short text, or an MCP tool error with useful text, never a stack trace. */
type ToolRun = <T extends object>(
  tool: McpToolName,
  fn: () => Promise<{ data: T; text: string }> | { data: T; text: string },
) => Promise<CallToolResult>;

/** Registers one tool on a server, calling the services through `run`. */
export type RegisterTool = (server: McpServer, context: { services: McpServices; run: ToolRun }) => void;

/**
 * A contract's fields as a tool schema. The contracts carry registry ids (for the OpenAPI components), which would
 * make the root of the tool's JSON Schema a `$ref`; MCP requires `type: "object"` there. Refinements of the root are
 * re-checked by the tool itself where they matter (create_quote, list_plans).
 */
export function toolSchema<Shape extends z.ZodRawShape>(schema: z.ZodObject<Shape>) {
  return z.object(schema.shape);
}

/** The annotations of a tool that only reads. */
export const READ_ONLY_TOOL = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
} as const;

/** An amount in the tools' English texts (integer cents): `$500,000`, `$1,234.50`. */
export const money = (cents: number, currency = 'USD') =>
  formatMoney(cents, currency, 'en-US', { trimZeroCents: true });

/** `run` for one server: an AppError is the tool's error text (as on /api/v1); anything else is logged, not shown. */
export function createToolRunner(logFailure: FailureLog, requestId?: string): ToolRun {
  function toolError(tool: McpToolName, err: unknown): CallToolResult {
    if (err instanceof AppError) {
      const lines = [`${err.message} (code ${err.code}, as HTTP ${err.status} on /api/v1).`];
      for (const d of err.details ?? []) lines.push(`- ${d.path}: ${d.message}`);
      if (err.code === 'quote_expired')
        lines.push('Create a new quote with create_quote; prices are never changed silently.');
      return { isError: true, content: [{ type: 'text', text: lines.join('\n') }] };
    }
    logFailure(err, { tool, requestId }, 'mcp tool failed');
    const ref = requestId ? ` Reference: ${requestId}.` : '';
    return {
      isError: true,
      content: [{ type: 'text', text: `Internal error in ${tool}; try again in a moment.${ref}` }],
    };
  }

  return async (tool, fn) => {
    try {
      const { data, text } = await fn();
      return { structuredContent: data as Record<string, unknown>, content: [{ type: 'text', text }] };
    } catch (err) {
      return toolError(tool, err);
    }
  };
}
