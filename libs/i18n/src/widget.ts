import type { RenderLocale } from './locales';
import type { WidgetMessages } from './generated/widget.types';

export type { WidgetMessages };

/**
 * The widget's texts (the iframe and the hosted Tier 1 page), one chunk per language: a bundler splits each
 * `import()` into its own file, so a page downloads only the language it shows, and another only when it is chosen.
 */
const LOADERS: Readonly<Record<RenderLocale, () => Promise<{ default: WidgetMessages }>>> = {
  en: () => import('./generated/widget.en'),
  de: () => import('./generated/widget.de'),
  fr: () => import('./generated/widget.fr'),
  es: () => import('./generated/widget.es'),
  'en-XA': () => import('./generated/widget.en-XA'),
};

export const loadWidgetMessages = (locale: RenderLocale): Promise<WidgetMessages> =>
  LOADERS[locale]().then((m) => m.default);
