import i18next, { type BackendModule, type i18n as I18n, type ResourceKey } from 'i18next';
import { initReactI18next } from 'react-i18next';

export const LANGUAGES = [
  { code: 'en', label: 'English' },
  { code: 'nl', label: 'Nederlands' },
] as const;

const LANGUAGE_KEY = 'language';
const FALLBACK_LANGUAGE = 'en';

function initialLanguage(): string {
  const stored = localStorage.getItem(LANGUAGE_KEY);
  if (stored && LANGUAGES.some((l) => l.code === stored)) return stored;
  return navigator.language.toLowerCase().startsWith('nl') ? 'nl' : 'en';
}

class LocaleFetchError extends Error {
  constructor(
    readonly url: string,
    readonly retry: boolean,
    cause?: unknown,
  ) {
    super(`Could not load ${url}`, { cause });
  }
}

/** One request per language and namespace, whoever asks first: a screen's route, or i18next itself. */
const requests = new Map<string, Promise<ResourceKey>>();

function fetchNamespace(lng: string, ns: string): Promise<ResourceKey> {
  const url = `${import.meta.env.BASE_URL}locales/${lng}/${ns}.json`;
  let request = requests.get(url);
  if (!request) {
    request = fetch(url).then(
      async (response) => {
        // A server error may pass; a missing file will not.
        if (!response.ok) throw new LocaleFetchError(url, response.status >= 500);
        return (await response.json()) as ResourceKey;
      },
      (error: unknown) => {
        throw new LocaleFetchError(url, true, error);
      },
    );
    // A failed request is forgotten, so i18next's retry asks again.
    request.catch(() => requests.delete(url));
    requests.set(url, request);
  }
  return request;
}

/** Translations come from /pim/locales/{lng}/{ns}.json: fetch and JSON, nothing more to ship. */
export const localeBackend: BackendModule = {
  type: 'backend',
  init: () => undefined,
  read(lng, ns, callback) {
    fetchNamespace(lng, ns).then(
      (data) => callback(null, data),
      (error: unknown) => callback(error as Error, error instanceof LocaleFetchError && error.retry),
    );
  },
};

/** Starts the requests of the namespaces in the language and its fallback, as i18next will read them. */
function prefetchNamespaces(lng: string, namespaces: readonly string[]): void {
  const languages = lng === FALLBACK_LANGUAGE ? [lng] : [lng, FALLBACK_LANGUAGE];
  for (const language of languages) for (const ns of namespaces) void fetchNamespace(language, ns).catch(() => undefined);
}

/** Set by initI18n: the app's own start-up, with the backend above (tests give i18next their resources instead). */
let started: { instance: I18n; ready: Promise<unknown> } | undefined;

/** Starts the translations (common) at once; screens load their namespace on demand. */
export function initI18n(instance: I18n = i18next): Promise<unknown> {
  const lng = initialLanguage();
  document.documentElement.lang = lng;
  // Now, not when i18next gets to it after this task: the first render waits for these.
  prefetchNamespaces(lng, ['common']);
  const ready = instance
    .use(localeBackend)
    .use(initReactI18next)
    .init({
      lng,
      fallbackLng: FALLBACK_LANGUAGE,
      supportedLngs: LANGUAGES.map((l) => l.code),
      ns: ['common'],
      defaultNS: 'common',
      interpolation: { escapeValue: false },
      showSupportNotice: false,
    });
  started = { instance, ready };
  return ready;
}

/**
 * A screen's translations, asked for together with its code: both travel at once, and the screen
 * renders with its texts instead of suspending for them once its code has come.
 */
export async function loadNamespaces(namespaces: readonly string[]): Promise<void> {
  if (!started) {
    await i18next.loadNamespaces([...namespaces]);
    return;
  }
  const { instance, ready } = started;
  prefetchNamespaces(instance.resolvedLanguage ?? instance.language ?? initialLanguage(), namespaces);
  await ready;
  await instance.loadNamespaces([...namespaces]);
}

export function changeLanguage(code: string): void {
  localStorage.setItem(LANGUAGE_KEY, code);
  document.documentElement.lang = code;
  void i18next.changeLanguage(code);
}
