/**
 * @expedition/i18n: the traveler's languages (English, German, French, Spanish). One ICU MessageFormat catalog per
 * namespace and language (libs/i18n/messages), compiled to plain functions (src/generated), `Intl` formatting,
 * locale negotiation and Accept-Language. Universal: no Node API, no DOM.
 *
 * The messages themselves come from their own entries, so that a bundle holds only what it shows: servers import
 * `@expedition/i18n/documents` (every language of every server-rendered text), the widget
 * `@expedition/i18n/widget` (its texts, one lazily loaded chunk per language).
 */
export {
  asLocale,
  DEFAULT_LOCALE,
  intlLocale,
  LANGUAGE_NAMES,
  type Locale,
  LOCALES,
  matchLocale,
  negotiateLocale,
  negotiateRenderLocale,
  PSEUDO_LOCALE,
  type RenderLocale,
} from './locales';
export { formatDay, formatList } from './format';
export { slot, splitSlots } from './slots';
