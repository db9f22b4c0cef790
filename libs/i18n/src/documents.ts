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
import checkoutEn from './generated/checkout.en';
import checkoutDe from './generated/checkout.de';
import checkoutFr from './generated/checkout.fr';
import checkoutEs from './generated/checkout.es';
import checkoutPseudo from './generated/checkout.en-XA';
import mailEn from './generated/mail.en';
import mailDe from './generated/mail.de';
import mailFr from './generated/mail.fr';
import mailEs from './generated/mail.es';
import mailPseudo from './generated/mail.en-XA';
import type { DocumentsMessages } from './generated/documents.types';
import type { CatalogMessages } from './generated/catalog.types';
import type { CheckoutMessages } from './generated/checkout.types';
import type { MailMessages } from './generated/mail.types';
import type { WidgetMessages } from './generated/widget.types';
import widgetEn from './generated/widget.en';
import widgetDe from './generated/widget.de';
import widgetFr from './generated/widget.fr';
import widgetEs from './generated/widget.es';
import widgetPseudo from './generated/widget.en-XA';

export type { CatalogMessages, CheckoutMessages, DocumentsMessages, MailMessages, WidgetMessages };

/**
 * Every text the servers render for travelers, in every language at once: the policyholder's documents (policy page,
 * policy wording, certificate), the catalog's texts (keyed by catalog ids), the checkout-link pages and the
 * confirmation e-mail. Browser code must not import this module (it holds every language); the widget loads its own
 * namespace per language.
 */
const byLocale = <T>(en: T, de: T, fr: T, es: T, pseudo: T): Readonly<Record<RenderLocale, T>> => ({
  en,
  de,
  fr,
  es,
  'en-XA': pseudo,
});

const DOCUMENTS = byLocale(documentsEn, documentsDe, documentsFr, documentsEs, documentsPseudo);
const CATALOG = byLocale(catalogEn, catalogDe, catalogFr, catalogEs, catalogPseudo);
const CHECKOUT = byLocale(checkoutEn, checkoutDe, checkoutFr, checkoutEs, checkoutPseudo);
const MAIL = byLocale(mailEn, mailDe, mailFr, mailEs, mailPseudo);
const WIDGET = byLocale(widgetEn, widgetDe, widgetFr, widgetEs, widgetPseudo);

export const documentsMessages = (locale: RenderLocale): DocumentsMessages => DOCUMENTS[locale];
export const catalogMessages = (locale: RenderLocale): CatalogMessages => CATALOG[locale];
export const checkoutMessages = (locale: RenderLocale): CheckoutMessages => CHECKOUT[locale];
export const mailMessages = (locale: RenderLocale): MailMessages => MAIL[locale];
/** The widget's texts for the server that writes its documents (titles); the browser loads them per language. */
export const widgetMessages = (locale: RenderLocale): WidgetMessages => WIDGET[locale];
