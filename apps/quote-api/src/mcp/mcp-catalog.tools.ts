import {
  CoverageGapRequestSchema,
  CoverageGapResponseSchema,
  DestinationListSchema,
  PlanDetailsSchema,
  PlanIdParamsSchema,
  ProductListQuerySchema,
  ProductListSchema,
  QUOTE_DISCLAIMER,
} from '@expedition/contracts';
import { AppError } from '@expedition/http-kit';
import { coverageGap } from '../coverage-gap/coverage-gap.service';
import { defaultDurations } from './mcp-instructions';
import { money, READ_ONLY_TOOL, toolSchema, type McpToolName, type RegisterTool } from './mcp-tools';

/** The read-only tools: the catalog (as GET /api/v1/destinations and /products) and the coverage gap. */
export const CATALOG_TOOLS = {
  list_destinations: (server, { services, run }) =>
    server.registerTool(
      'list_destinations',
      {
        title: 'List destinations',
        description:
          "The destinations we insure, with each one's default trip duration (defaultDurationDays). Use a slug as " +
          `create_quote's destination. If the traveler gives no duration, use the default (${defaultDurations()}) and tell them.`,
        outputSchema: toolSchema(DestinationListSchema),
        annotations: READ_ONLY_TOOL,
      },
      () =>
        run('list_destinations', () => {
          const data = services.catalog.destinations();
          const { destinations } = data;
          return {
            data,
            text: `${destinations.length} destinations: ${destinations.map((d) => `${d.name} (${d.slug}, default ${d.defaultDurationDays} days)`).join(', ')}.`,
          };
        }),
    ),

  list_plans: (server, { services, run }) =>
    server.registerTool(
      'list_plans',
      {
        title: 'List insurance plans',
        description:
          'Plans, optionally filtered by destination slug, residence (and US state), and tier. Shows indicative prices ' +
          'only; for a price for this trip and these travelers call create_quote.',
        inputSchema: toolSchema(ProductListQuerySchema),
        outputSchema: toolSchema(ProductListSchema),
        annotations: READ_ONLY_TOOL,
      },
      (args) =>
        run('list_plans', () => {
          const { list, destination } = services.catalog.products(args, 'arguments');
          return {
            data: list,
            text: `${list.plansCount} plans${destination ? ` for ${destination.name}` : ''}: ${list.plans.map((p) => `${p.name} (${p.id})`).join(', ')}.`,
          };
        }),
    ),

  get_plan: (server, { services, run }) =>
    server.registerTool(
      'get_plan',
      {
        title: 'Plan details',
        description:
          'Coverage limits, eligibility (ages, trip length, residence) and policy terms of one plan, by planId.',
        inputSchema: toolSchema(PlanIdParamsSchema),
        outputSchema: toolSchema(PlanDetailsSchema),
        annotations: READ_ONLY_TOOL,
      },
      ({ planId }) =>
        run('get_plan', () => {
          const data = services.catalog.plan(planId);
          if (!data)
            throw AppError.notFound('plan_not_found', `No plan with id "${planId}"; list_plans names every plan`);
          const c = data.coverage;
          return {
            data,
            text:
              `${data.planName} (${data.carrier}, ${data.tier}): medical ${money(c.medicalExpenseLimit * 100)}, evacuation ` +
              `${money(c.evacuationCoverage * 100)}, trip cancellation ${money(c.tripCancellation * 100)}, deductible ${money(c.deductible * 100)}; ` +
              `ages ${data.eligibility.minAge}–${data.eligibility.maxAge}.`,
          };
        }),
    ),

  coverage_gap: (server, { run }) =>
    server.registerTool(
      'coverage_gap',
      {
        title: "Compare a credit card's travel cover",
        description:
          "What a credit card's built-in travel insurance leaves uncovered on this trip (cancellation, medical, " +
          'evacuation), and which plans close the gap. Relay the disclaimer.',
        inputSchema: toolSchema(CoverageGapRequestSchema),
        outputSchema: toolSchema(CoverageGapResponseSchema),
        annotations: READ_ONLY_TOOL,
      },
      (body) =>
        run('coverage_gap', () => {
          const data = coverageGap(body);
          return { data, text: `${data.summary}\n\n${QUOTE_DISCLAIMER}` };
        }),
    ),
} satisfies Partial<Record<McpToolName, RegisterTool>>;
