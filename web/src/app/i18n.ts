import { PAGE_COOKIE } from '@pim/contract';
import { writePageCookie } from '../session/page-cookies';
import { DEFAULT_NAMESPACE, FALLBACK_LANGUAGE, i18n, type Texts, type Translations } from '../i18n/translations';

export const LANGUAGES = [
  { code: 'en', label: 'English' },
  { code: 'nl', label: 'Nederlands' },
] as const;

const LANGUAGE_KEY = 'language';
/** Asked again after a server error or a lost connection, a little later each time (as i18next did). */
const RETRIES = 5;
const FIRST_RETRY_MS = 350;

/** The language the user chose in the app, if they did. */
export function chosenLanguage(): string | null {
  const stored = localStorage.getItem(LANGUAGE_KEY);
  return stored && LANGUAGES.some((l) => l.code === stored) ? stored : null;
}

/** The chosen one, else the browser's (the server picks a page's language by the same rule, from accept-language). */
export function initialLanguage(): string {
  return chosenLanguage() ?? (navigator.language.toLowerCase().startsWith('nl') ? 'nl' : FALLBACK_LANGUAGE);
}

/**
 * Translations come from /pim/locales/{lng}/{ns}.json: fetch and JSON, nothing more to ship. A
 * server error may pass; a missing file will not, and its texts read as their keys.
 */
export async function fetchTexts(language: string, ns: string): Promise<Texts | undefined> {
  const url = `${import.meta.env.BASE_URL}locales/${language}/${ns}.json`;
  for (let tries = 0, wait = FIRST_RETRY_MS; ; tries++, wait *= 2) {
    const response = await fetch(url).catch(() => undefined);
    if (response?.ok) return (await response.json().catch(() => undefined)) as Texts | undefined;
    if ((response && response.status < 500) || tries === RETRIES) return undefined;
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

/** Set by initI18n: the app's own start-up (tests give the translations their texts instead). */
let started: Translations = i18n;

/** Starts the translations (common) at once; screens load their namespace on demand. */
export function initI18n(instance: Translations = i18n): Promise<void> {
  const language = initialLanguage();
  document.documentElement.lang = language;
  instance.start(language, fetchTexts);
  started = instance;
  return instance.loadNamespaces([DEFAULT_NAMESPACE]);
}

/**
 * A screen's translations, asked for together with its code: both travel at once, and the screen
 * renders with its texts instead of suspending for them once its code has come.
 */
export function loadNamespaces(namespaces: readonly string[]): Promise<void> {
  return started.loadNamespaces(namespaces);
}

export function changeLanguage(code: string): void {
  localStorage.setItem(LANGUAGE_KEY, code);
  writePageCookie(PAGE_COOKIE.language, code);
  document.documentElement.lang = code;
  void started.changeLanguage(code);
}
