import type { Language } from '../../../streams/i18n/language';
import type { Catalog } from './catalogs/en';

/** Each translation in a chunk of its own: the page fetches the viewer's one only (English is in the controls). */
const CATALOGS: Record<Exclude<Language, 'en'>, () => Promise<{ default: Catalog }>> = {
  es: () => import('./catalogs/es'),
  de: () => import('./catalogs/de'),
  ja: () => import('./catalogs/ja'),
  ar: () => import('./catalogs/ar'),
};

/** The catalog of `language`, fetched with the controls; null for English, which the controls carry. */
export const loadCatalog = (language: Language): Promise<Catalog | null> =>
  language === 'en' ? Promise.resolve(null) : CATALOGS[language]().then((m) => m.default);
