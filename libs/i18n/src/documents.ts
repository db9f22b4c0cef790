import type { RenderLocale } from './locales';
import documentsEn from './generated/documents.en';
import documentsDe from './generated/documents.de';
import documentsFr from './generated/documents.fr';
import documentsEs from './generated/documents.es';
import documentsPseudo from './generated/documents.en-XA';
import catalogEn from './generated/catalog.en';
import catalogDe from './generated/catalog.de';
import catalogFr from './generated/catalog.fr';
import catalogEs from './generated/catalog.es';
import catalogPseudo from './generated/catalog.en-XA';
import type { DocumentsMessages } from './generated/documents.types';
import type { CatalogMessages } from './generated/catalog.types';

export type { DocumentsMessages, CatalogMessages };

/**
 * The policyholder's documents (policy page, policy wording, certificate): every language at once, for servers.
 * Browser code must not import this module (it holds every language); it loads its own namespace per language.
 */
const DOCUMENTS: Readonly<Record<RenderLocale, DocumentsMessages>> = {
  en: documentsEn,
  de: documentsDe,
  fr: documentsFr,
  es: documentsEs,
  'en-XA': documentsPseudo,
};

/** The catalog's texts (plan descriptions, destinations, exclusions, cancellation reasons), keyed by catalog ids. */
const CATALOG: Readonly<Record<RenderLocale, CatalogMessages>> = {
  en: catalogEn,
  de: catalogDe,
  fr: catalogFr,
  es: catalogEs,
  'en-XA': catalogPseudo,
};

export const documentsMessages = (locale: RenderLocale): DocumentsMessages => DOCUMENTS[locale];
export const catalogMessages = (locale: RenderLocale): CatalogMessages => CATALOG[locale];
