import { createContext, useContext } from 'react';
import { createI18n, type I18n } from './translate';

/** The interface's language for the views; English where no provider sets one (the views' unit tests). */
const I18nContext = createContext<I18n>(createI18n('en'));

export const I18nProvider = I18nContext.Provider;

/** The interface's language: `t`, numbers, durations, language names. */
export const useI18n = (): I18n => useContext(I18nContext);
