/**
 * Entry of the iframe document (`/frame`) and the hosted Tier 1 page (`/quote`): both load this one module and the
 * boot block tells them apart. The frame talks to the page only after the handshake (hello → init from
 * `window.parent` at the verified origin), and calls no API before `svc:frame.init`.
 */
import type { WidgetBootData } from '@expedition/contracts/widget-boot';
import type { FrameConfig } from '@expedition/contracts/widget-protocol';
import { intlLocale, negotiateRenderLocale, type Locale, type RenderLocale } from '@expedition/i18n';
import { loadWidgetMessages } from '@expedition/i18n/widget';
import { render, type ComponentChildren } from 'preact';
import { applyAppearance, safeLocale } from './appearance';
import { readBootData } from './boot';
import { acceptMessage, createPoster, type Poster } from './messaging';
import { TextsContext, type Texts } from './texts';
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

/**
 * The language: the page's MountConfig.locale (by language: de-AT → de), else the one the server chose for this
 * document (the hosted page's ?locale=, else the browser's Accept-Language), else the browser's languages, else
 * English. The pseudo-locale en-XA only when asked by name.
 */
function languageOf(boot: WidgetBootData | undefined, config?: FrameConfig): RenderLocale {
  return negotiateRenderLocale({
    explicit: [config?.locale, boot?.locale],
    acceptLanguage: navigator.languages?.join(',') ?? navigator.language,
  });
}

/** Renders `view` in `lang` once its texts are loaded (the chunk of that language only); the last call wins. */
let rendering = 0;
async function renderIn(
  root: HTMLElement,
  lang: RenderLocale,
  intl: string | undefined,
  view: () => ComponentChildren,
): Promise<void> {
  const mine = ++rendering;
  const t = await loadWidgetMessages(lang);
  if (mine !== rendering) return;
  document.documentElement.lang = lang;
  const texts: Texts = { t, lang, intl: intl ?? intlLocale(lang) };
  render(<TextsContext.Provider value={texts}>{view()}</TextsContext.Provider>, root);
}

function renderApp(
  root: HTMLElement,
  boot: WidgetBootData,
  config: FrameConfig,
  emit: Emit,
  onLanguage?: (lang: Locale) => void,
): Promise<void> {
  applyAppearance(document.documentElement, config.appearance);
  const lang = languageOf(boot, config);
  // Intl formats in the page's own tag when it is the same language (de-AT keeps Austrian formats).
  const tag = safeLocale(config.locale);
  const intl = tag && lang !== 'en-XA' && tag.toLowerCase().split('-')[0] === lang ? tag : undefined;
  return renderIn(root, lang, intl, () => <App boot={boot} config={config} emit={emit} onLanguage={onLanguage} />);
}

function start(): void {
  const root = mountPoint();
  const boot = readBootData(document);
  if (!boot) {
    void renderIn(root, languageOf(undefined), undefined, () => <Refused />);
    return;
  }
  if (boot.kind === 'hosted') {
    if (boot.state === 'refused') void renderIn(root, languageOf(boot), undefined, () => <Refused />);
    else {
      // The hosted page's language switch: in place (what was typed stays), and in the address for a reload or a link.
      const hosted = (locale?: string) =>
        void renderApp(
          root,
          boot,
          { prefill: boot.prefill ?? {}, ...(locale ? { locale } : {}) },
          () => undefined,
          (lang) => {
            const url = new URL(window.location.href);
            url.searchParams.set('locale', lang);
            history.replaceState(null, '', url);
            hosted(lang);
          },
        );
      hosted();
    }
    return;
  }

  // The frame speaks only to its parent at the verified origin; without both (or outside a frame) it stays silent.
  const parent = window.parent;
  const poster =
    boot.parentOrigin && boot.instanceId && parent !== window
      ? createPoster({ parent, parentOrigin: boot.parentOrigin, instanceId: boot.instanceId })
      : undefined;
  if (boot.state === 'refused' || !poster || !boot.parentOrigin || !boot.instanceId) {
    void renderIn(root, languageOf(boot), undefined, () => <Refused />);
    if (poster) {
      poster.hello(boot.version);
      poster.event('quote.error', {
        code: boot.refusal?.code ?? 'unauthorized',
        message: boot.refusal?.message || "This insurance widget isn't available here.",
      });
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
      void renderApp(root, boot, config, emit).then(() => observeHeight(root, poster));
    } else if (config) {
      // update: only the fields it carries change; a new prefill object re-fills the form.
      config = { ...config, ...message.config };
      void renderApp(root, boot, config, emit);
    }
  });
  poster.hello(boot.version);
}

start();
