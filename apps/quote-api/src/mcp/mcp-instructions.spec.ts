import { listDestinations } from '@expedition/domain-pricing';
import { mcpInstructions } from './mcp-instructions';

describe('MCP instructions', () => {
  it('name the destinations the catalog covers, and no other kind of trip (no "high-altitude")', () => {
    const first = mcpInstructions().split('\n')[0]!;
    for (const destination of listDestinations()) expect(first).toContain(destination.name);
    expect(mcpInstructions()).not.toMatch(/high-altitude|mountain/i);
  });
});
