/**
 * The widget's language: its texts (libs/i18n `widget` namespace, loaded per language), the language they are in, and
 * the locale `Intl` formats money and country names with. Components read them with `useTexts()`.
 */
import { splitSlots, type RenderLocale } from '@expedition/i18n';
import type { WidgetMessages } from '@expedition/i18n/widget';
import { createContext, type ComponentChildren } from 'preact';
import { useContext } from 'preact/hooks';

export interface Texts {
  t: WidgetMessages;
  /** The language of `t` (sent with the quote, so the e-mail and documents follow it). */
  lang: RenderLocale;
  /** MountConfig.locale when Intl takes it (de-AT), else the language: money, dates, country names. */
  intl: string;
}

export const TextsContext = createContext<Texts | undefined>(undefined);

export function useTexts(): Texts {
  const texts = useContext(TextsContext);
  if (!texts) throw new Error('useTexts outside TextsContext');
  return texts;
}

/** A translated sentence with markup where its slots are (`slot(0)` passed as the message's argument). */
export function rich(text: string, parts: readonly ComponentChildren[]): ComponentChildren[] {
  return splitSlots(text).map((part) => (typeof part === 'number' ? parts[part] : part));
}
