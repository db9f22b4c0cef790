import type { Router } from 'express';
import type { Mode } from '@expedition/contracts';
import { buildAcpOpenApi } from '@expedition/contracts/openapi';
import { createIdempotencyStore } from '../purchase/idempotency.repository';
import { createOrderLinks } from './acp-order';
import { acpRouter } from './acp.router';
import { createAcpService, type AcpServiceDeps } from './acp.service';
import { createAgentKeyAuth } from './agent-keys';

export interface AcpApiDeps extends AcpServiceDeps {
  rateLimiter: AcpRouterLimiter['rateLimiter'];
  rateLimitPerMinute: number;
  /** This deployment's payment mode (QUOTE_API_MODE). */
  mode: Mode;
}
type AcpRouterLimiter = Parameters<typeof acpRouter>[0];

/** Everything /acp/v1 needs, from quote-api's own services: mounted by app.ts at `/acp/v1`. */
export function acpApi(deps: AcpApiDeps): Router {
  return acpRouter({
    service: createAcpService(deps),
    auth: createAgentKeyAuth({ prisma: deps.prisma, clock: deps.clock }),
    idempotency: createIdempotencyStore({ prisma: deps.prisma, clock: deps.clock }),
    rateLimiter: deps.rateLimiter,
    rateLimitPerMinute: deps.rateLimitPerMinute,
    mode: deps.mode,
    clock: deps.clock,
    logger: deps.logger,
    openapi: JSON.stringify(buildAcpOpenApi({ serverUrl: deps.publicUrl })),
    orderLinks: createOrderLinks(deps.policyTokens),
  });
}
