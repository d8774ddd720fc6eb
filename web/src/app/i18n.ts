import i18n from 'i18next';
import HttpBackend from 'i18next-http-backend';
import { initReactI18next } from 'react-i18next';

export const LANGUAGES = [
  { code: 'en', label: 'English' },
  { code: 'nl', label: 'Nederlands' },
] as const;

const LANGUAGE_KEY = 'language';

function initialLanguage(): string {
  const stored = localStorage.getItem(LANGUAGE_KEY);
  if (stored && LANGUAGES.some((l) => l.code === stored)) return stored;
  return navigator.language.toLowerCase().startsWith('nl') ? 'nl' : 'en';
}

/** Translations come from /pim/locales/{lng}/{ns}.json; screens load their namespace on demand. */
export async function initI18n(): Promise<void> {
  const lng = initialLanguage();
  document.documentElement.lang = lng;
  await i18n
    .use(HttpBackend)
    .use(initReactI18next)
    .init({
      lng,
      fallbackLng: 'en',
      supportedLngs: LANGUAGES.map((l) => l.code),
      ns: ['common'],
      defaultNS: 'common',
      backend: { loadPath: `${import.meta.env.BASE_URL}locales/{{lng}}/{{ns}}.json` },
      interpolation: { escapeValue: false },
      showSupportNotice: false,
    });
}

export function changeLanguage(code: string): void {
  localStorage.setItem(LANGUAGE_KEY, code);
  document.documentElement.lang = code;
  void i18n.changeLanguage(code);
}
