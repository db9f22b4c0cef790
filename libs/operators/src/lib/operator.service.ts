import { createAuditService } from './audit.service';
import { createDashboardService } from './dashboard.service';
import { createOperatorProfileService } from './operator-profile.service';
import { createOriginService } from './origin.service';
import { createPublishableKeyService } from './publishable-key.service';
import { createSecretKeyService } from './secret-key.service';
import { createWebhookEventService } from './webhook-event.service';
import { type WebhookSecretServiceDeps, createWebhookSecretService } from './webhook-secret.service';

/** Everything the operator services together need: the webhook secret service's deps are the widest. */
export type OperatorServiceDeps = WebhookSecretServiceDeps;

/**
 * The operator services, one per concern, over the same database, clock and default actor. Callers pick the ones
 * they use (the portal's routers); none of them knows the others.
 */
export function createOperatorServices(deps: OperatorServiceDeps) {
  return {
    profiles: createOperatorProfileService(deps),
    publishableKeys: createPublishableKeyService(deps),
    secretKeys: createSecretKeyService(deps),
    origins: createOriginService(deps),
    webhookSecrets: createWebhookSecretService(deps),
    webhookEvents: createWebhookEventService(deps),
    dashboard: createDashboardService(deps),
    audit: createAuditService(deps),
  };
}

export type OperatorServices = ReturnType<typeof createOperatorServices>;

/**
 * The same services as ONE object, every function at the top level: for callers that hold a single "operators"
 * handle (the admin CLI, the launcher's demo operator, fuzz and topology tools, tests).
 */
export function createOperatorService(deps: OperatorServiceDeps) {
  const s = createOperatorServices(deps);
  return {
    ...s.profiles,
    ...s.publishableKeys,
    ...s.secretKeys,
    ...s.origins,
    ...s.webhookSecrets,
    ...s.webhookEvents,
    ...s.dashboard,
    ...s.audit,
  };
}

export type OperatorService = ReturnType<typeof createOperatorService>;
