import {
  ProductListQuerySchema,
  type Destination as DestinationDto,
  type PlanDetails,
  type ProductList,
} from '@expedition/contracts';
import { findDestination, getPlan, listDestinations, listPlans, type Destination } from '@expedition/domain-pricing';
import { AppError, parseOrThrow } from '@expedition/http-kit';
import { toDestinationDto, toPlanDetails, toPlanSummary } from './catalog.mapper';

/**
 * The catalog as /api/v1 (GET /destinations, /products, /products/{planId}) and the MCP tools and resources
 * (list_destinations, list_plans, get_plan) answer it. The catalog is code (reviewed, versioned data in
 * domain-pricing): nothing here touches the database.
 */
export function createCatalogService(deps: { publicUrl: string }) {
  function destinations(): { destinations: DestinationDto[] } {
    return { destinations: listDestinations().map(toDestinationDto) };
  }

  /** The plans a product query asks for; `where` names the input in errors (`query`, `arguments`). */
  function products(input: unknown, where: string): { list: ProductList; destination?: Destination } {
    const query = parseOrThrow(ProductListQuerySchema, input, where);
    const destination = query.destination ? findDestination(query.destination) : undefined;
    if (query.destination && !destination) {
      throw new AppError(400, 'unknown_destination', `Unknown destination "${query.destination}"`, [
        {
          path: 'destination',
          message: `use one of: ${listDestinations()
            .map((d) => d.slug)
            .join(', ')}`,
        },
      ]);
    }
    const plans = listPlans({
      destination: destination?.slug,
      residence: query.residence,
      state: query.state,
      tier: query.tier,
      includeDisabled: query.include_disabled,
    });
    return {
      list: { destination: destination?.slug ?? 'all', plansCount: plans.length, plans: plans.map(toPlanSummary) },
      destination,
    };
  }

  /** One plan's details; undefined for an unknown id (each channel words its own not-found). */
  function plan(planId: string): PlanDetails | undefined {
    const found = getPlan(planId);
    return found && toPlanDetails(found, deps.publicUrl);
  }

  return { destinations, products, plan };
}

export type CatalogService = ReturnType<typeof createCatalogService>;
