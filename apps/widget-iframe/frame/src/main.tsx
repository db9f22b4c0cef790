/**
 * Entry of the iframe document (`/frame`) and the hosted Tier 1 page (`/quote`): both load this one module and the
 * boot block tells them apart. The frame talks to the page only after the handshake (hello → init from
 * `window.parent` at the verified origin), and calls no API before `svc:frame.init`.
 */
import type { WidgetBootData } from '@expedition/contracts/widget-boot';
import type { FrameConfig } from '@expedition/contracts/widget-protocol';
import { render } from 'preact';
import { applyAppearance, safeLocale } from './appearance';
import { readBootData } from './boot';
import { acceptMessage, createPoster, type Poster } from './messaging';
import { App } from './ui/app';
import type { Emit } from './ui/emit';
import { Refused } from './ui/refused';

function mountPoint(): HTMLElement {
  const existing = document.getElementById('svc-root');
  if (existing) return existing;
  const div = document.createElement('div');
  div.id = 'svc-root';
  document.body.append(div);
  return div;
}

/** Auto-resize: the root's height, rounded up, posted only when it changes. */
function observeHeight(root: HTMLElement, poster: Poster): void {
  let last = -1;
  const report = () => {
    const height = Math.ceil(root.getBoundingClientRect().height);
    if (height === last) return;
    last = height;
    poster.resize(height);
  };
  new ResizeObserver(report).observe(root);
  report();
}

function renderApp(root: HTMLElement, boot: WidgetBootData, config: FrameConfig, emit: Emit): void {
  const locale = safeLocale(config.locale);
  if (locale) document.documentElement.lang = locale;
  applyAppearance(document.documentElement, config.appearance);
  render(<App boot={boot} config={config} locale={locale} emit={emit} />, root);
}

function start(): void {
  const root = mountPoint();
  const boot = readBootData(document);
  if (!boot) {
    render(<Refused />, root);
    return;
  }
  if (boot.kind === 'hosted') {
    if (boot.state === 'refused') render(<Refused />, root);
    else renderApp(root, boot, { prefill: boot.prefill ?? {} }, () => undefined);
    return;
  }

  // The frame speaks only to its parent at the verified origin; without both (or outside a frame) it stays silent.
  const parent = window.parent;
  const poster = boot.parentOrigin && boot.instanceId && parent !== window ? createPoster({ parent, parentOrigin: boot.parentOrigin, instanceId: boot.instanceId }) : undefined;
  if (boot.state === 'refused' || !poster || !boot.parentOrigin || !boot.instanceId) {
    render(<Refused />, root);
    if (poster) {
      poster.hello(boot.version);
      poster.event('quote.error', { code: boot.refusal?.code ?? 'unauthorized', message: boot.refusal?.message || "This insurance widget isn't available here." });
    }
    return;
  }

  const target = { parent, parentOrigin: boot.parentOrigin, instanceId: boot.instanceId };
  let config: FrameConfig | undefined;
  const emit: Emit = (name, payload) => poster.event(name, payload);
  window.addEventListener('message', (event) => {
    const message = acceptMessage(event, target);
    if (!message) return;
    if (message.kind === 'init') {
      if (config) return; // one init per document; later ones are ignored
      config = message.config;
      renderApp(root, boot, config, emit);
      observeHeight(root, poster);
    } else if (config) {
      // update: only the fields it carries change; a new prefill object re-fills the form.
      config = { ...config, ...message.config };
      renderApp(root, boot, config, emit);
    }
  });
  poster.hello(boot.version);
}

start();
