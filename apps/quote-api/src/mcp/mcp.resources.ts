import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { QUOTE_DISCLAIMER, policyWordingUrls } from '@expedition/contracts';
import { getPlan, listPlans } from '@expedition/domain-pricing';
import { AppError } from '@expedition/http-kit';
import { policyWording, renderWordingPdf } from '@expedition/policy-documents';
import { renderWordingPage } from '../documents/wording.page';
import { mcpInstructions, quoteConversationPrompt } from './mcp-instructions';
import type { McpServices } from './mcp.services';

/** The prompt `quote_conversation` names and its resources' URIs: stable, clients remember them. */
export const MCP_PROMPTS = ['quote_conversation'] as const;
export const MCP_RESOURCE_TEMPLATES = {
  wording: 'expedition://plans/{planId}/wording',
  policy: 'expedition://policies/{policyNumber}{?access_token}',
} as const;

/** MCP's "resource not found" (spec, resources: error handling). */
const RESOURCE_NOT_FOUND = -32002;

/**
 * The resources (the disclaimer, the agent rules, the destinations, each plan's policy wording, a policy by its
 * access token) and the `quote_conversation` prompt.
 */
export function registerResourcesAndPrompts(server: McpServer, services: McpServices): void {
  server.registerResource(
    'disclaimer',
    'expedition://disclaimer',
    {
      title: 'Disclaimer to relay',
      description: 'Relay this text to the traveler with every quote.',
      mimeType: 'text/plain',
    },
    (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: QUOTE_DISCLAIMER }] }),
  );
  server.registerResource(
    'agent-rules',
    'expedition://agent-rules',
    {
      title: 'Rules for agents',
      description: 'Question order, default durations, ages 70+, presenting plans, the disclaimer.',
      mimeType: 'text/plain',
    },
    (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: mcpInstructions() }] }),
  );
  server.registerResource(
    'destinations',
    'expedition://destinations',
    {
      title: 'Destinations',
      description: 'Every destination with its slug and default trip duration.',
      mimeType: 'application/json',
    },
    (uri) => ({
      contents: [
        {
          uri: uri.href,
          mimeType: 'application/json',
          text: JSON.stringify(services.catalog.destinations()),
        },
      ],
    }),
  );

  server.registerResource(
    'plan-wording',
    new ResourceTemplate(MCP_RESOURCE_TEMPLATES.wording, {
      list: () => ({
        resources: listPlans({}).map((p) => ({
          uri: `expedition://plans/${encodeURIComponent(p.id)}/wording`,
          name: `${p.name}: policy wording`,
          mimeType: 'text/html',
        })),
      }),
      complete: {
        planId: (value) =>
          listPlans({})
            .map((p) => p.id)
            .filter((id) => id.startsWith(value)),
      },
    }),
    {
      title: 'Policy wording of a plan',
      description:
        'The policy wording (what is covered, limits, exclusions, emergencies, claims) of one plan, as the HTML page ' +
        'and the PDF served at /policy-wording/{planId}. Quote from it when the traveler asks what a plan covers.',
      mimeType: 'text/html',
    },
    async (uri, { planId }) => {
      const plan = getPlan(String(planId));
      if (!plan)
        throw new McpError(
          RESOURCE_NOT_FOUND,
          `Resource not found: no plan "${String(planId)}"; list_plans names every plan`,
        );
      const wording = policyWording(plan);
      const urls = policyWordingUrls(services.publicUrl, plan.id);
      return {
        contents: [
          { uri: uri.href, mimeType: 'text/html', text: renderWordingPage(wording, urls) },
          {
            uri: urls.pdf,
            mimeType: 'application/pdf',
            blob: (await renderWordingPdf(wording, urls)).toString('base64'),
          },
        ],
      };
    },
  );

  server.registerResource(
    'policy',
    new ResourceTemplate(MCP_RESOURCE_TEMPLATES.policy, { list: undefined }),
    {
      title: 'A policy (with its access token)',
      description:
        'The policy bought for a quote, as get_policy answers it: expedition://policies/{policyNumber}?access_token=pat_… ' +
        '(both from the purchase receipt). An unknown number and a wrong token are the same not-found error.',
      mimeType: 'application/json',
    },
    async (uri, { policyNumber, access_token }) => {
      const number = String(policyNumber ?? '');
      const token = String(access_token ?? '');
      let policy;
      try {
        policy = await services.policies.lookup(number, token);
      } catch (err) {
        if (err instanceof AppError && err.status < 500)
          throw new McpError(RESOURCE_NOT_FOUND, 'Resource not found: no policy with this number and access token');
        throw err;
      }
      return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(policy) }] };
    },
  );

  server.registerPrompt(
    'quote_conversation',
    {
      title: 'Quote and buy travel insurance',
      description:
        'Walks you through the quote conversation: the question order, default durations, every age (70+ costs more), ' +
        'the recommended plan first, the disclaimer, then the checkout link.',
      argsSchema: {
        traveler_request: z
          .string()
          .max(2000)
          .optional()
          .describe('What the traveler has already said about the trip (optional).'),
      },
    },
    ({ traveler_request }) => ({
      description: 'The quote conversation for expedition travel insurance',
      messages: [{ role: 'user', content: { type: 'text', text: quoteConversationPrompt(traveler_request) } }],
    }),
  );
}
