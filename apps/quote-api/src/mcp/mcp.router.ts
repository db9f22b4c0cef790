import { Router, type ErrorRequestHandler, type RequestHandler, type Response } from 'express';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import { QUOTE_API_LIMITS } from '@expedition/contracts';
import { jsonBody, refuseUnstorableJson, toAppError } from '@expedition/http-kit';
import { createMcpServer } from './mcp.server';
import type { McpServices } from './mcp.services';

/**
 * MCP over Streamable HTTP at /mcp, stateless: every POST is one JSON-RPC exchange answered as plain JSON, with a
 * server built for that request (no session, so any replica can answer). GET (a server-sent event stream) and
 * DELETE (ending a session) have nothing to serve here: 405 with `Allow: POST`.
 */
export function mcpRouter(deps: { services: McpServices; rateLimit: RequestHandler }): Router {
  const router = Router();
  // The per-client limit of /api/v1 (same counter); request logging is app-wide.
  router.use(deps.rateLimit);
  router.post(
    '/',
    // Not strict: a bare JSON value is valid JSON, hence an invalid request (-32600) below, not a parse error.
    jsonBody({ limit: QUOTE_API_LIMITS.maxJsonBodyBytes, strict: false }),
    refuseUnstorableJson(),
    (req, res, next) => {
      if (isJsonRpcPayload(req.body)) return next();
      sendJsonRpcError(res, 400, INVALID_REQUEST, 'Invalid Request: the body is not a JSON-RPC 2.0 message', req.id);
    },
    async (req, res, next) => {
      const server = createMcpServer(deps.services, { requestId: req.id });
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
  router.use(jsonRpcErrors);
  router.all('/', (_req, res) => {
    res
      .status(405)
      .set('Allow', 'POST')
      .json({
        jsonrpc: '2.0',
        error: { code: -32000, message: 'Method not allowed: this MCP endpoint is stateless; POST JSON-RPC messages.' },
        id: null,
      });
  });
  return router;
}

// JSON-RPC 2.0 error codes (https://www.jsonrpc.org/specification#error_object); -32000 is the MCP SDK's code for
// transport-level refusals (406, 413, 415 …) that JSON-RPC itself has no code for.
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
const TRANSPORT_ERROR = -32000;

/** One message or a non-empty batch of them, each a JSON-RPC 2.0 request, notification or response. */
function isJsonRpcPayload(body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body];
  return messages.length > 0 && messages.every((m) => JSONRPCMessageSchema.safeParse(m).success);
}

/**
 * A JSON-RPC error the way the MCP SDK's Streamable HTTP transport answers its own (`id: null`: the request's id is
 * unknown when it could not be read), with the HTTP status it uses: 400 for a parse error or an invalid request. The
 * request id rides in `error.data` as in the X-Request-Id header.
 */
function sendJsonRpcError(res: Response, status: number, code: number, message: string, requestId: unknown): void {
  res.status(status).json({
    jsonrpc: '2.0',
    error: { code, message, ...(requestId ? { data: { requestId: String(requestId) } } : {}) },
    id: null,
  });
}

/**
 * Errors of the body parser and the body checks, as JSON-RPC errors instead of the REST error body: unreadable JSON
 * is a parse error (-32700), a body refused for its content (a NUL, nesting too deep) an invalid request (-32600), an
 * oversized body or a charset other than UTF-8 a transport error with 413 / 415. Faults (5xx) go on to the app's
 * error handler, which logs them.
 */
const jsonRpcErrors: ErrorRequestHandler = (err, req, res, next) => {
  const error = toAppError(err);
  if (error.status >= 500 || res.headersSent) return next(err);
  if (error.code === 'invalid_json')
    return sendJsonRpcError(res, 400, PARSE_ERROR, 'Parse error: the body is not valid JSON', req.id);
  if (error.status === 400) return sendJsonRpcError(res, 400, INVALID_REQUEST, error.message, req.id);
  sendJsonRpcError(res, error.status, TRANSPORT_ERROR, error.message, req.id);
};
