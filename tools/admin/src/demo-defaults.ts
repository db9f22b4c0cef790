/** Path on the demo operator site that receives policy.issued webhooks (the demo site must serve it). */
export const DEMO_WEBHOOK_PATH = '/webhooks/expedition';

/**
 * Where `demo:ensure` points the demo operator unless told otherwise: the launcher's demo site
 * (docs/integration-guide.md §1: port 4200, DEMO_PORT), or DEMO_URL when the site is served elsewhere; DEMO_WEBHOOK_URL
 * overrides the receiver.
 */
export function demoDefaults(given: { demoUrl?: string; demoPort: number; demoWebhookUrl?: string }): {
  demoOrigin: string;
  demoWebhookUrl: string;
} {
  const demoOrigin = (given.demoUrl ?? `http://localhost:${given.demoPort}`).replace(/\/+$/, '');
  return { demoOrigin, demoWebhookUrl: given.demoWebhookUrl ?? `${demoOrigin}${DEMO_WEBHOOK_PATH}` };
}
