/**
 * `window.SvcWidget`: mounts the widget iframe, speaks the `svc:` postMessage protocol with it (origin-locked both
 * ways, docs/contract.md) and calls the page's handlers. Built into one IIFE of at most 3 KB gzipped: no dependencies,
 * only types and a few constants from @expedition/contracts/widget-protocol.
 */
import {
  FRAME_MESSAGE,
  SVC_WIDGET_EVENT_NAMES,
  WIDGET_EVENT_NAMES,
  WIDGET_MESSAGE_PREFIX,
  type FrameConfig,
  type MountConfig,
  type MountTarget,
  type SvcWidgetApi,
  type WidgetHandle,
} from '@expedition/contracts/widget-protocol';
import { isObject, validateMountConfig } from './validate';
import { LOADER_VERSION } from './version';

type Payload = Record<string, unknown>;
type Handler = (event: never) => void;
interface Subscription {
  name: string;
  fn: Handler;
  /** null: a global `SvcWidget.on` handler (sees every instance). */
  owner: Instance | null;
  once: boolean;
}
interface Instance {
  id: string;
  container: Element;
  iframe: HTMLIFrameElement;
  config: MountConfig;
  handle: WidgetHandle;
  greeted: boolean;
  failed: boolean;
  destroyed: boolean;
  timers: ReturnType<typeof setTimeout>[];
}

const PREFILL_KEYS =
  'destination startDate endDate tripCost travelers travelerAges travelerDobs residence state email name currency'.split(
    ' ',
  );
export const DEFAULT_LOAD_TIMEOUT_MS = 15_000;
/** A frame that loaded but never said hello was refused (frame-ancestors) or is not ours. */
export const REFUSED_AFTER_MS = 3_000;
const INITIAL_HEIGHT = '420px';

function frameConfig(c: MountConfig): FrameConfig {
  const prefill: Payload = {};
  for (const key of PREFILL_KEYS) if ((c as Payload)[key] !== undefined) prefill[key] = (c as Payload)[key];
  return { tier: c.tier, locale: c.locale, appearance: c.appearance, prefill };
}

export function createSvcWidget(win: Window, embedOrigin: string): SvcWidgetApi {
  const doc = win.document;
  let subscriptions: Subscription[] = [];
  const instances: Instance[] = [];

  const checkName = (name: string) => {
    if ((SVC_WIDGET_EVENT_NAMES as readonly string[]).indexOf(name) < 0)
      throw new TypeError(`SvcWidget: unknown event "${name}"`);
  };
  const subscribe = (owner: Instance | null, name: string, fn: Handler, once: boolean) => {
    checkName(name);
    if (typeof fn !== 'function') throw new TypeError(`SvcWidget: the "${name}" handler must be a function`);
    const sub: Subscription = { name, fn, owner, once };
    subscriptions.push(sub);
    return () => {
      subscriptions = subscriptions.filter((s) => s !== sub);
    };
  };
  const unsubscribe = (owner: Instance | null, name: string, fn: Handler) => {
    checkName(name);
    subscriptions = subscriptions.filter((s) => !(s.owner === owner && s.name === name && s.fn === fn));
  };

  /** Handlers run in subscribe order; one that throws is logged and the others still run. */
  const emit = (inst: Instance, name: string, payload: Payload) => {
    for (const sub of subscriptions.slice()) {
      if (sub.name !== name || (sub.owner && sub.owner !== inst) || subscriptions.indexOf(sub) < 0) continue;
      if (sub.once) subscriptions = subscriptions.filter((s) => s !== sub);
      try {
        (sub.fn as (event: Payload) => void)({ ...payload, instanceId: inst.id });
      } catch (err) {
        console.error(`SvcWidget: a "${name}" handler threw`, err);
      }
    }
  };

  // Only to this iframe's window, only with the embed origin as target: never "*".
  const post = (inst: Instance, message: Payload) => inst.iframe.contentWindow?.postMessage(message, embedOrigin);

  const onMessage = (event: MessageEvent) => {
    if (event.origin !== embedOrigin || !event.source) return;
    let inst: Instance | undefined;
    for (const i of instances) if (i.iframe.contentWindow === event.source) inst = i;
    const data = event.data as Payload;
    if (!inst || !isObject(data) || data['instanceId'] !== inst.id || typeof data['type'] !== 'string') return;
    const type = data['type'];
    if (type === FRAME_MESSAGE.hello) {
      post(inst, { type: FRAME_MESSAGE.init, instanceId: inst.id, config: frameConfig(inst.config) });
      if (!inst.greeted) {
        inst.greeted = true;
        emit(inst, 'widget.ready', { version: typeof data['version'] === 'string' ? data['version'] : undefined });
      }
    } else if (type === FRAME_MESSAGE.resize) {
      const height = data['height'];
      if (inst.config.autoResize !== false && typeof height === 'number' && height >= 0 && height < 1e5) {
        inst.iframe.style.height = `${Math.ceil(height)}px`;
        // A frame that shrank under the reader (the success view after a long checkout form on a phone) would leave
        // them looking at the page below it: bring it back into view.
        if (inst.iframe.getBoundingClientRect().bottom < 0) inst.iframe.scrollIntoView({ block: 'nearest' });
      }
    } else if (type.indexOf(WIDGET_MESSAGE_PREFIX) === 0) {
      const name = type.slice(WIDGET_MESSAGE_PREFIX.length);
      const payload = data['payload'];
      if ((WIDGET_EVENT_NAMES as readonly string[]).indexOf(name) < 0 || !isObject(payload)) return;
      if (
        name === 'quote.selected' &&
        !(typeof payload['planId'] === 'string' && Number.isInteger(payload['premiumCents']))
      )
        return;
      emit(inst, name, payload);
    }
  };

  const fail = (inst: Instance, code: string, message: string) => {
    if (inst.greeted || inst.failed || inst.destroyed) return;
    inst.failed = true;
    console.error(`SvcWidget: ${message}`);
    emit(inst, 'widget.error', { code, message });
  };

  const apply = (inst: Instance, config: MountConfig) => {
    inst.config = config;
    inst.iframe.title = config.title || 'Travel insurance quote';
    if (config.autoResize === false) inst.iframe.style.height = '';
    if (inst.greeted) post(inst, { type: FRAME_MESSAGE.update, instanceId: inst.id, config: frameConfig(config) });
  };

  const randomId = () => {
    let id = 'svc-';
    for (const byte of win.crypto.getRandomValues(new Uint8Array(8))) id += (byte + 256).toString(16).slice(1);
    return id;
  };

  function mount(target: MountTarget, rawConfig: MountConfig): WidgetHandle {
    const el = typeof target === 'string' ? doc.querySelector(target) : (target as Element);
    if (!el || el.nodeType !== 1) throw new TypeError(`SvcWidget: no element ${target}`);
    const config = validateMountConfig(rawConfig, true);
    const existing = instances.filter((i) => i.container === el)[0];
    if (existing) {
      // React StrictMode double mounts, SPA navigation: one iframe per container, the same handle, updated.
      if (existing.config.publishableKey === config.publishableKey) {
        apply(existing, config);
        return existing.handle;
      }
      existing.handle.destroy();
    }

    const id = randomId();
    const iframe = doc.createElement('iframe');
    const enc = encodeURIComponent;
    // src before insertion: the host page's history gets no entry for the frame (back button stays the page's).
    iframe.src = `${embedOrigin}/frame?pk=${enc(config.publishableKey as string)}&instance=${enc(id)}&parent=${enc(win.location.origin)}`;
    iframe.setAttribute('allow', 'payment');
    iframe.setAttribute('data-svc-instance', id);
    const style = iframe.style;
    style.width = '100%';
    style.border = '0';
    style.display = 'block';
    if (config.autoResize !== false) style.height = INITIAL_HEIGHT;

    const assertAlive = () => {
      if (inst.destroyed) throw new Error('SvcWidget: destroyed');
    };
    const handle: WidgetHandle = {
      instanceId: id,
      on: (name, fn) => (assertAlive(), subscribe(inst, name, fn as Handler, false)),
      once: (name, fn) => (assertAlive(), subscribe(inst, name, fn as Handler, true)),
      off: (name, fn) => unsubscribe(inst, name, fn as Handler),
      update(next) {
        assertAlive();
        const checked = validateMountConfig(next, false);
        if (checked.publishableKey !== undefined && checked.publishableKey !== inst.config.publishableKey) {
          throw new TypeError('SvcWidget: update() cannot change the key; destroy() and mount()');
        }
        apply(inst, { ...inst.config, ...checked, publishableKey: inst.config.publishableKey });
      },
      destroy() {
        if (inst.destroyed) return;
        inst.destroyed = true;
        inst.timers.forEach(clearTimeout);
        iframe.remove();
        instances.splice(instances.indexOf(inst), 1);
        subscriptions = subscriptions.filter((s) => s.owner !== inst);
        if (!instances.length) win.removeEventListener('message', onMessage);
      },
    };
    const inst: Instance = {
      id,
      container: el,
      iframe,
      config,
      handle,
      greeted: false,
      failed: false,
      destroyed: false,
      timers: [],
    };
    apply(inst, config);

    const timeout = config.loadTimeoutMs ?? DEFAULT_LOAD_TIMEOUT_MS;
    inst.timers.push(
      setTimeout(() => fail(inst, 'frame_timeout', `no answer from ${embedOrigin} in ${timeout} ms`), timeout),
    );
    iframe.addEventListener('load', () => {
      inst.timers.push(
        setTimeout(
          () => fail(inst, 'frame_refused', `frame refused: is ${win.location.origin} an allowed origin of the key?`),
          Math.min(REFUSED_AFTER_MS, timeout),
        ),
      );
    });
    if (!instances.length) win.addEventListener('message', onMessage);
    instances.push(inst);
    el.appendChild(iframe);
    return handle;
  }

  return Object.freeze({
    embedOrigin,
    version: LOADER_VERSION,
    mount,
    on: (name, fn) => subscribe(null, name, fn as Handler, false),
    once: (name, fn) => subscribe(null, name, fn as Handler, true),
    off: (name, fn) => unsubscribe(null, name, fn as Handler),
  } as SvcWidgetApi);
}
