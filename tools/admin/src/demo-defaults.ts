/** Path on the demo operator site that receives policy.issued webhooks (the demo site must serve it). */
export const DEMO_WEBHOOK_PATH = '/webhooks/expedition';

/**
 * Where `demo:ensure` points the demo operator unless told otherwise: the launcher's demo site, whose origin is DEMO_URL,
 * else http://localhost:DEMO_PORT, else PORT_BASE + 1200 (4200; README "Configuration"); DEMO_WEBHOOK_URL overrides
 * the receiver.
 */
export function demoDefaults(given: { demoOrigin: string; demoWebhookUrl?: string }): {
  demoOrigin: string;
  demoWebhookUrl: string;
} {
  const { demoOrigin } = given;
  return { demoOrigin, demoWebhookUrl: given.demoWebhookUrl ?? `${demoOrigin}${DEMO_WEBHOOK_PATH}` };
}
