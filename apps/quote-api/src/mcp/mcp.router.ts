import express, { Router, type RequestHandler } from 'express';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { QUOTE_API_LIMITS } from '@expedition/contracts';
import { refuseUnstorableJson } from '@expedition/http-kit';
import { createMcpServer } from './mcp.server';
import type { McpServices } from './mcp.services';

/**
 * MCP over Streamable HTTP at /mcp, stateless: every POST is one JSON-RPC exchange answered as plain JSON, with a
 * server built for that request (no session, so any replica can answer). GET (a server-sent event stream) and
 * DELETE (ending a session) have nothing to serve here: 405 with `Allow: POST`.
 */
export function mcpRouter(deps: McpServices & { rateLimit: RequestHandler }): Router {
  const router = Router();
  // The per-client limit of /api/v1 (same counter); request logging is app-wide.
  router.use(deps.rateLimit);
  router.post(
    '/',
    express.json({ limit: QUOTE_API_LIMITS.maxJsonBodyBytes, strict: true }),
    refuseUnstorableJson(),
    async (req, res, next) => {
      const server = createMcpServer(deps, { requestId: req.id });
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      res.on('close', () => {
        void transport.close();
        void server.close();
      });
      try {
        await server.connect(transport);
        await transport.handleRequest(req, res, req.body);
      } catch (err) {
        next(err);
      }
    },
  );
  router.all('/', (_req, res) => {
    res
      .status(405)
      .set('Allow', 'POST')
      .json({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this MCP endpoint is stateless; POST JSON-RPC messages.' }, id: null });
  });
  return router;
}
