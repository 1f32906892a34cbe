/**
 * The three languages of the panel. The member's choice is kept in localStorage (until the
 * account stores it); without one, the browser's first language we speak; else English.
 */
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from './en.json';
import es from './es.json';
import ptBR from './pt-BR.json';

export const LANGUAGES = ['en', 'pt-BR', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];
export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', 'pt-BR': 'Português (Brasil)', es: 'Español' };

const STORAGE_KEY = 'quorum.panel.language';

function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** en-GB → en, pt-PT → pt-BR (our only Portuguese), es-MX → es. */
function fromBrowser(tag: string): Language | null {
  if (isLanguage(tag)) return tag;
  const base = tag.toLowerCase().split('-')[0];
  return base === 'pt' ? 'pt-BR' : base === 'es' ? 'es' : base === 'en' ? 'en' : null;
}

export function initialLanguage(): Language {
  try {
    const stored = localStorage.getItem(STORAGE_KEY);
    if (isLanguage(stored)) return stored;
  } catch {
    // storage refused (private mode): fall through to the browser's languages
  }
  for (const tag of navigator.languages ?? [navigator.language]) {
    const language = fromBrowser(tag);
    if (language) return language;
  }
  return 'en';
}

export async function chooseLanguage(language: Language): Promise<void> {
  try {
    localStorage.setItem(STORAGE_KEY, language);
  } catch {
    // the choice lasts for this page only
  }
  await i18next.changeLanguage(language);
}

export function currentLanguage(): Language {
  return isLanguage(i18next.language) ? i18next.language : 'en';
}

i18next.on('languageChanged', (language) => {
  document.documentElement.lang = language;
});

// Every language is bundled (a few KB), so the set-up is synchronous: no flash of untranslated text.
void i18next.use(initReactI18next).init({
  initAsync: false,
  resources: { en: { translation: en }, 'pt-BR': { translation: ptBR }, es: { translation: es } },
  lng: initialLanguage(),
  fallbackLng: 'en',
  interpolation: { escapeValue: false }, // React escapes
  returnNull: false,
});
document.documentElement.lang = i18next.language;

export default i18next;
