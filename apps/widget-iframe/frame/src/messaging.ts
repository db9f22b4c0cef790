/**
 * The iframe's side of the `svc:` channel (libs/contracts widget-protocol): it posts only to `window.parent` with the
 * verified parent origin as target (never "*"), and accepts only `svc:frame.init` / `svc:frame.update` for its own
 * instance, from `window.parent`, from that origin. Everything else is ignored.
 */
import { EMAIL_MAX_LENGTH } from '@expedition/contracts/rules';
import {
  FRAME_MESSAGE,
  MOUNT_CONFIG_LIMITS,
  WIDGET_MESSAGE_PREFIX,
  type FrameConfig,
  type WidgetAppearance,
  type WidgetEventName,
  type WidgetEventPayload,
  type WidgetPrefill,
} from '@expedition/contracts/widget-protocol';

export interface ChannelTarget {
  /** window.parent */
  parent: Pick<Window, 'postMessage'>;
  parentOrigin: string;
  instanceId: string;
}

export type InboundMessage = { kind: 'init' | 'update'; config: FrameConfig };

/** The filter of every inbound message: the right window, the right origin, this instance, a known type. */
export function acceptMessage(
  event: Pick<MessageEvent, 'source' | 'origin' | 'data'>,
  target: Pick<ChannelTarget, 'parent' | 'parentOrigin' | 'instanceId'>,
): InboundMessage | undefined {
  if (event.source !== target.parent || event.origin !== target.parentOrigin) return undefined;
  const data = event.data as Record<string, unknown> | null;
  if (!data || typeof data !== 'object' || data['instanceId'] !== target.instanceId) return undefined;
  if (data['type'] === FRAME_MESSAGE.init) return { kind: 'init', config: sanitizeConfig(data['config']) };
  if (data['type'] === FRAME_MESSAGE.update) return { kind: 'update', config: sanitizeConfig(data['config']) };
  return undefined;
}

// Caps on the page's strings: an appearance value is at most MOUNT_CONFIG_LIMITS.maxCssValue, a prefill field at
// most the longest a quote accepts (an e-mail address, EMAIL_MAX_LENGTH); the form then checks each field's own rule.
const str = (v: unknown, max: number = MOUNT_CONFIG_LIMITS.maxCssValue): v is string =>
  typeof v === 'string' && v.trim().length > 0 && v.length <= max;
const num = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** Keeps only well-typed fields: the page's config is input like any other. */
export function sanitizeConfig(value: unknown): FrameConfig {
  if (!value || typeof value !== 'object') return {};
  const v = value as Record<string, unknown>;
  const config: FrameConfig = {};
  if (v['tier'] === 1 || v['tier'] === 2 || v['tier'] === 3) config.tier = v['tier'];
  if (str(v['locale'], 35)) config.locale = v['locale'];
  const appearance = sanitizeAppearance(v['appearance']);
  if (appearance) config.appearance = appearance;
  const prefill = sanitizePrefill(v['prefill']);
  if (prefill) config.prefill = prefill;
  return config;
}

function sanitizeAppearance(value: unknown): WidgetAppearance | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const v = value as Record<string, unknown>;
  const out: WidgetAppearance = {};
  for (const key of ['accentColor', 'backgroundColor', 'textColor', 'borderRadius', 'fontFamily'] as const) {
    if (str(v[key])) out[key] = v[key];
  }
  if (v['theme'] === 'light' || v['theme'] === 'dark' || v['theme'] === 'auto') out.theme = v['theme'];
  return out;
}

export function sanitizePrefill(value: unknown): WidgetPrefill | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const v = value as Record<string, unknown>;
  const out: WidgetPrefill = {};
  for (const key of [
    'destination',
    'startDate',
    'endDate',
    'residence',
    'state',
    'email',
    'name',
    'currency',
  ] as const) {
    if (str(v[key], EMAIL_MAX_LENGTH)) out[key] = v[key].trim();
  }
  if (num(v['tripCost'])) out.tripCost = v['tripCost'];
  if (num(v['travelers'])) out.travelers = v['travelers'];
  if (Array.isArray(v['travelerAges']) && v['travelerAges'].every(num))
    out.travelerAges = v['travelerAges'] as number[];
  if (Array.isArray(v['travelerDobs']) && v['travelerDobs'].every((d) => str(d, 10)))
    out.travelerDobs = v['travelerDobs'] as string[];
  return out;
}

/** Posts to the parent: only ever with the verified origin as target. */
export function createPoster(target: ChannelTarget) {
  const post = (message: Record<string, unknown>) =>
    target.parent.postMessage({ ...message, instanceId: target.instanceId }, target.parentOrigin);
  return {
    hello: (version: string) => post({ type: FRAME_MESSAGE.hello, version }),
    resize: (height: number) => post({ type: FRAME_MESSAGE.resize, height }),
    event: <E extends WidgetEventName>(name: E, payload: WidgetEventPayload<E>) =>
      post({ type: `${WIDGET_MESSAGE_PREFIX}${name}`, payload }),
  };
}
export type Poster = ReturnType<typeof createPoster>;
