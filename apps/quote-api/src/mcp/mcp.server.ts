import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { QUOTE_API_VERSION } from '@expedition/contracts';
import { CATALOG_TOOLS } from './mcp-catalog.tools';
import { mcpInstructions } from './mcp-instructions';
import { PURCHASE_TOOLS } from './mcp-purchase.tools';
import { createToolRunner, MCP_TOOLS, type McpToolName, type RegisterTool } from './mcp-tools';
import { registerResourcesAndPrompts } from './mcp.resources';
import type { McpServices } from './mcp.services';

const MCP_SERVER_NAME = 'expedition-insurance';

/** Every tool, registered in the order of MCP_TOOLS (the order tools/list answers). */
const TOOLS: Record<McpToolName, RegisterTool> = { ...CATALOG_TOOLS, ...PURCHASE_TOOLS };

/** An MCP server with every tool; one per HTTP request (stateless), or one for the stdio process. */
export function createMcpServer(services: McpServices, options: { requestId?: string } = {}): McpServer {
  const server = new McpServer(
    { name: MCP_SERVER_NAME, title: 'Expedition travel insurance', version: QUOTE_API_VERSION },
    { instructions: mcpInstructions(), capabilities: { resources: {}, prompts: {} } },
  );
  const run = createToolRunner(services.logFailure, options.requestId);
  for (const name of MCP_TOOLS) TOOLS[name](server, { services, run });
  registerResourcesAndPrompts(server, services);
  return server;
}
