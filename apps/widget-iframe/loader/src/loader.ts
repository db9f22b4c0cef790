/**
 * `window.SvcWidget`: mounts the widget iframe, speaks the `svc:` postMessage protocol with it (origin-locked both
 * ways, docs/contract.md "Widget events (in-page)") and calls the page's handlers. Built into one IIFE of at most
 * 2.8 KB gzipped (README, "Build and budget"): no dependencies, only types and a few constants from
 * @expedition/contracts/widget-protocol. Names ending in `_` are private and mangled by the build.
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
import { FIELD_NAMES, isObject, raise, validateMountConfig } from './validate';
import { LOADER_VERSION } from './version';

type Payload = Record<string, unknown>;
type Handler = (event: Payload) => void;
/** Who subscribed: a handle's liveness check (one per instance), or undefined for a global `SvcWidget.on` handler. */
type Owner = (() => void) | undefined;
interface Subscription {
  name_: string;
  fn_: Handler;
  owner_: Owner;
  once_: boolean;
}
interface Instance {
  /** A message from the embed origin: ignored unless it comes from this instance's iframe window. */
  receive_: (event: MessageEvent) => void;
  /** Mounting again into its container: the same key updates it and returns its handle, another key destroys it. */
  remount_: (config: MountConfig) => WidgetHandle | void;
}

/** The hosted quote page's query parameters (`GET /quote`, docs/integration-guide.md §4), in FIELD_NAMES' order. */
export const HOSTED_KEYS = FIELD_NAMES.slice(2, 11);
/** FrameConfig.prefill's fields. */
export const PREFILL_KEYS = FIELD_NAMES.slice(3, 15);
export const DEFAULT_LOAD_TIMEOUT_MS = 15_000;
/** A frame that loaded but never said hello was refused (frame-ancestors, or the page's CSP frame-src). */
export const REFUSED_AFTER_MS = 3_000;
const INITIAL_HEIGHT = '420px';
const DEFAULT_TITLE = 'Travel insurance quote';

export function createSvcWidget(win: Window, embedOrigin: string): SvcWidgetApi {
  const doc = win.document;
  /** `?a=1&b=2`: every value encoded (URLSearchParams: the same bytes as encodeURIComponent for ours). */
  const query = (params: Payload) => `?${new URLSearchParams(params as Record<string, string>)}`;
  const subscriptions = new Set<Subscription>();
  /** By container: one widget per element. */
  const instances = new Map<Element, Instance>();

  const checkName = (name: string) =>
    (SVC_WIDGET_EVENT_NAMES as readonly string[]).includes(name) || raise(`unknown event "${name}"`);
  const subscribe = (owner_: Owner, name_: string, fn_: Handler, once_: boolean) => {
    owner_?.();
    checkName(name_);
    if (typeof fn_ !== 'function') raise(`the "${name_}" handler must be a function`);
    const sub: Subscription = { name_, fn_, owner_, once_ };
    subscriptions.add(sub);
    return () => {
      subscriptions.delete(sub);
    };
  };
  /** on/once/off of `SvcWidget` (no owner) and of a handle (`owner`: its liveness check). */
  const methods = (owner?: Owner) => ({
    on: (name: string, fn: Handler) => subscribe(owner, name, fn, false),
    once: (name: string, fn: Handler) => subscribe(owner, name, fn, true),
    off: (name: string, fn: Handler) => {
      checkName(name);
      subscriptions.forEach((s) => s.owner_ === owner && s.name_ === name && s.fn_ === fn && subscriptions.delete(s));
    },
  });
  const onMessage = (event: MessageEvent) => {
    if (event.origin === embedOrigin && event.source) instances.forEach((i) => i.receive_(event));
  };

  function mount(target: MountTarget, rawConfig: MountConfig): WidgetHandle {
    const el = (typeof target === 'string' ? doc.querySelector(target) : target) as Element;
    if (el?.nodeType !== 1) raise(`no element ${target}`);
    let config = validateMountConfig(rawConfig, true);
    // React StrictMode double mounts, SPA navigation: one iframe per container, the same handle, updated.
    const same = instances.get(el)?.remount_(config);
    if (same) return same;

    const key = config.publishableKey as string;
    const pageOrigin = win.location.origin;
    let id = 'svc-';
    for (const byte of win.crypto.getRandomValues(new Uint8Array(8))) id += (byte + 256).toString(16).slice(1);
    const iframe = doc.createElement('iframe');
    const style = iframe.style;
    /**
     * The fallback link, kept up to date and shown in the iframe's place when it is refused: to the hosted quote page
     * (Tier 1) with the trip parameters it takes (never the traveler's e-mail or name: a URL ends up in logs), named
     * like the iframe (its `title`: the loader has no texts of its own).
     */
    const link = doc.createElement('a');
    /** The frame said hello (widget.ready). */
    let greeted = false;
    /** widget.error was emitted, or the handle destroyed: no (further) widget.error. */
    let failed = false;
    let destroyed = false;
    // src before insertion: the host page's history gets no entry for the frame (back button stays the page's).
    iframe.src = `${embedOrigin}/frame${query({ pk: key, instance: id, parent: pageOrigin })}`;
    iframe.allow = 'payment'; // the reflected attribute: in every browser with the `?.` this file needs (2020)
    iframe.dataset['svcInstance'] = link.dataset['svcInstance'] = id;
    style.cssText = 'width:100%;border:0;display:block';
    if (config.autoResize !== false) style.height = INITIAL_HEIGHT;

    /** The fields of `config` among `keys` that are set. */
    const pick = (keys: string[]) => {
      const picked: Payload = {};
      for (const k of keys) if ((config as Payload)[k] !== undefined) picked[k] = (config as Payload)[k];
      return picked;
    };
    // Only to this iframe's window, only with the embed origin as target: never "*".
    const post = (type: string) =>
      iframe.contentWindow?.postMessage(
        {
          type,
          instanceId: id,
          config: {
            tier: config.tier,
            locale: config.locale,
            appearance: config.appearance,
            prefill: pick(PREFILL_KEYS),
          } satisfies FrameConfig,
        },
        embedOrigin,
      );
    const apply = (next: MountConfig) => {
      config = next;
      iframe.title = next.title || DEFAULT_TITLE;
      if (next.autoResize === false) style.height = '';
      if (greeted) post(FRAME_MESSAGE.update);
      link.href = `${embedOrigin}/quote${query({ pk: key, ...pick(HOSTED_KEYS) })}`;
      link.textContent = iframe.title;
    };
    const alive = () => {
      if (destroyed) throw new Error('SvcWidget: destroyed');
    };
    /** Handlers run in subscribe order; one that throws is logged and the others still run. */
    const emit = (name: string, payload: Payload) => {
      for (const sub of [...subscriptions]) {
        if (sub.name_ !== name || (sub.owner_ && sub.owner_ !== alive) || !subscriptions.has(sub)) continue;
        if (sub.once_) subscriptions.delete(sub);
        try {
          sub.fn_({ ...payload, instanceId: id });
        } catch (err) {
          console.error(`SvcWidget: a "${name}" handler threw`, err);
        }
      }
    };
    /** At most once, and never after widget.ready or destroy() (the timers that call it are left to run out). */
    const fail = (code: string, message: string, refused?: 1) => {
      if (greeted || failed) return;
      failed = true;
      console.error(`SvcWidget: ${message}`);
      if (refused) {
        // The browser's broken-frame box becomes the fallback link, before the handlers run: they may restyle it,
        // or destroy() the handle to remove it.
        iframe.replaceWith(link);
      }
      emit('widget.error', { code, message });
    };

    const handle: WidgetHandle = {
      instanceId: id,
      ...(methods(alive) as Pick<WidgetHandle, 'on' | 'once' | 'off'>),
      update(next) {
        alive();
        const checked = validateMountConfig(next, false);
        if ((checked.publishableKey ?? key) !== key) raise('update() cannot change the key; destroy() and mount()');
        apply({ ...config, ...checked, publishableKey: key });
      },
      destroy() {
        if (destroyed) return;
        destroyed = failed = true;
        iframe.remove();
        link.remove();
        instances.delete(el);
        subscriptions.forEach((s) => s.owner_ === alive && subscriptions.delete(s));
        if (!instances.size) win.removeEventListener('message', onMessage);
      },
    };
    apply(config);

    if (!instances.size) win.addEventListener('message', onMessage);
    instances.set(el, {
      remount_: (next) => (next.publishableKey === key ? (apply(next), handle) : handle.destroy()),
      receive_(event) {
        const data = event.data;
        // The embed origin and this iframe's window: our frame, trusted with the shape of its messages.
        if (event.source !== iframe.contentWindow || data?.['instanceId'] !== id) return;
        const type = data['type'];
        if (type === FRAME_MESSAGE.hello) {
          post(FRAME_MESSAGE.init);
          if (!greeted) {
            greeted = true;
            emit('widget.ready', { version: data['version'] });
          }
        } else if (type === FRAME_MESSAGE.resize) {
          const height = data['height'];
          if (config.autoResize !== false && typeof height === 'number' && height >= 0 && height < 1e5) {
            style.height = `${Math.ceil(height)}px`;
            // A frame that shrank under the reader (the success view after a long checkout form on a phone) would
            // leave them looking at the page below it: bring it back into view.
            if (iframe.getBoundingClientRect().bottom < 0) iframe.scrollIntoView({ block: 'nearest' });
          }
        } else if (typeof type === 'string' && type.startsWith(WIDGET_MESSAGE_PREFIX)) {
          const name = type.slice(WIDGET_MESSAGE_PREFIX.length);
          const payload = data['payload'];
          if (
            (WIDGET_EVENT_NAMES as readonly string[]).includes(name) &&
            isObject(payload) &&
            (name !== 'quote.selected' ||
              (typeof payload['planId'] === 'string' && Number.isInteger(payload['premiumCents'])))
          )
            emit(name, payload);
        }
      },
    });

    const timeout = config.loadTimeoutMs ?? DEFAULT_LOAD_TIMEOUT_MS;
    setTimeout(() => fail('frame_timeout', `no answer from ${embedOrigin} in ${timeout} ms`), timeout);
    iframe.onload = () =>
      setTimeout(
        () => fail('frame_refused', `frame refused: is ${pageOrigin} an allowed origin of the key?`, 1),
        Math.min(REFUSED_AFTER_MS, timeout),
      );
    el.appendChild(iframe);
    return handle;
  }

  return Object.freeze({ embedOrigin, version: LOADER_VERSION, mount, ...methods() } as SvcWidgetApi);
}
