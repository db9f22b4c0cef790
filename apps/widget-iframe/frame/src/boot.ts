import { WIDGET_BOOT_ELEMENT_ID, type WidgetBootData } from '@expedition/contracts/widget-boot';

const str = (v: unknown): v is string => typeof v === 'string' && v.length > 0;

/**
 * Reads the boot block the server wrote (`<script type="application/json" id="svc-boot">`). Anything malformed is
 * `undefined`: the UI then shows the neutral "not available" notice and talks to nobody.
 */
export function readBootData(doc: Document): WidgetBootData | undefined {
  const text = doc.getElementById(WIDGET_BOOT_ELEMENT_ID)?.textContent;
  if (!text) return undefined;
  try {
    return parseBootData(JSON.parse(text));
  } catch {
    return undefined;
  }
}

export function parseBootData(value: unknown): WidgetBootData | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const v = value as Record<string, unknown>;
  if (v['kind'] !== 'frame' && v['kind'] !== 'hosted') return undefined;
  if (v['state'] !== 'ok' && v['state'] !== 'refused') return undefined;
  if (typeof v['publishableKey'] !== 'string' || typeof v['embedUrl'] !== 'string') return undefined;
  const allowedTier = v['allowedTier'] === 1 || v['allowedTier'] === 2 || v['allowedTier'] === 3 ? v['allowedTier'] : 1;
  const payments = (v['payments'] ?? {}) as Record<string, unknown>;
  const refusal = v['refusal'] as Record<string, unknown> | undefined;
  const parentOrigin = str(v['parentOrigin']) && isOrigin(v['parentOrigin']) ? v['parentOrigin'] : undefined;
  return {
    kind: v['kind'],
    state: v['state'],
    ...(refusal && (refusal['code'] === 'unauthorized' || refusal['code'] === 'origin_not_allowed')
      ? { refusal: { code: refusal['code'], message: str(refusal['message']) ? refusal['message'] : '' } }
      : {}),
    publishableKey: v['publishableKey'],
    ...(str(v['instanceId']) ? { instanceId: v['instanceId'] } : {}),
    ...(parentOrigin ? { parentOrigin } : {}),
    embedUrl: v['embedUrl'].replace(/\/+$/, ''),
    ...(v['mode'] === 'test' || v['mode'] === 'live' ? { mode: v['mode'] } : {}),
    allowedTier,
    payments: {
      provider: payments['provider'] === 'stripe' ? 'stripe' : 'simulated',
      ...(str(payments['stripePublishableKey']) ? { stripePublishableKey: payments['stripePublishableKey'] } : {}),
    },
    version: str(v['version']) ? v['version'] : '0.0.0',
    ...(str(v['operatorName']) ? { operatorName: v['operatorName'] } : {}),
    ...(v['prefill'] && typeof v['prefill'] === 'object' ? { prefill: v['prefill'] as WidgetBootData['prefill'] } : {}),
    ...(str(v['locale']) && (v['locale'] as string).length <= 35 ? { locale: v['locale'] } : {}),
  };
}

/** `scheme://host[:port]` exactly as `URL.origin` writes it (never "*", never "null"). */
export function isOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value;
  } catch {
    return false;
  }
}
