#!/usr/bin/env node
/**
 * The built quote-api's second entry point: `node dist/apps/quote-api/mcp.js` (or the package's `expedition-mcp` bin) runs the MCP server over stdio (the
 * same as `npm run mcp`; see mcp/stdio.main.ts). Beside main.js, so the build writes it as `mcp.js`.
 */
import './mcp/stdio.main';
