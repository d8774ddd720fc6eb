/**
 * The app's texts: one namespace per area (`common`, `imagesets`, …), each a JSON file per
 * language, English the fallback for a text a language lacks. Keys are paths (`nav.language`),
 * `ns:path` reads another namespace, `{{name}}` takes a value (`{{count, number}}` formatted for
 * the language), and a `count` picks the `_one`/`_other` form the language's plural rules ask
 * for. A text found nowhere reads as its key. This is the part of i18next the app used, with the
 * same rules, without its 15 kB.
 */
export type Texts = { [key: string]: string | Texts };

export type TOptions = { count?: number; defaultValue?: string; [name: string]: unknown };

export type TFunction = (key: string, options?: TOptions) => string;

/** Where a namespace's texts come from: undefined when they cannot be had, never a rejection. */
export type LoadTexts = (language: string, ns: string) => Promise<Texts | undefined>;

export const FALLBACK_LANGUAGE = 'en';
export const DEFAULT_NAMESPACE = 'common';

const pluralRules = new Map<string, Intl.PluralRules>();
const numberFormats = new Map<string, Intl.NumberFormat>();

function cached<T>(cache: Map<string, T>, language: string, make: (language: string) => T): T {
  let value = cache.get(language);
  if (!value) {
    value = make(language);
    cache.set(language, value);
  }
  return value;
}

function textAt(texts: Texts | undefined, path: string): string | undefined {
  let node: string | Texts | undefined = texts;
  for (const part of path.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  return typeof node === 'string' ? node : undefined;
}

/** Values in place of `{{name}}`; a placeholder no value is given for stays as it is. */
function interpolate(text: string, values: TOptions, language: string): string {
  return text.replace(/\{\{(.+?)\}\}/g, (placeholder, inside: string) => {
    const [name = '', format] = inside.split(',').map((part) => part.trim());
    let value = values[name];
    if (format === 'number') value = cached(numberFormats, language, (l) => new Intl.NumberFormat(l)).format(value as number);
    if (value === undefined) return Object.hasOwn(values, name) ? '' : placeholder;
    return value === null ? '' : String(value);
  });
}

type Load = { done: boolean; promise: Promise<void> };

export class Translations {
  language = FALLBACK_LANGUAGE;
  private load: LoadTexts | undefined;
  private languageWanted: string | undefined;
  private readonly texts = new Map<string, Texts>();
  private readonly loads = new Map<string, Load>();
  /** Every namespace asked for so far: a new language needs them all before it shows. */
  private readonly namespaces = new Set([DEFAULT_NAMESPACE]);
  private readonly fixedTs = new Map<string, TFunction>();
  private readonly listeners = new Set<() => void>();

  /** From now on, namespaces not given their texts come from `load`. */
  start(language: string, load: LoadTexts): void {
    this.language = language;
    this.load = load;
  }

  addResourceBundle(language: string, ns: string, texts: Texts): void {
    const id = `${language}|${ns}`;
    this.texts.set(id, { ...this.texts.get(id), ...texts });
  }

  private languagesOf(language: string): string[] {
    return language === FALLBACK_LANGUAGE ? [language] : [language, FALLBACK_LANGUAGE];
  }

  /** Asks for the namespaces in the language and the fallback, once each; settles when all have come or failed. */
  loadNamespaces(namespaces: readonly string[], language = this.language): Promise<void> {
    for (const ns of namespaces) this.namespaces.add(ns);
    const load = this.load;
    if (!load) return Promise.resolve();
    const loads = this.languagesOf(language).flatMap((lng) =>
      namespaces.map((ns) => {
        const id = `${lng}|${ns}`;
        let entry = this.loads.get(id);
        if (!entry) {
          const loading: Load = {
            done: false,
            promise: load(lng, ns).then((texts) => {
              if (texts) this.addResourceBundle(lng, ns, texts);
              loading.done = true;
            }),
          };
          entry = loading;
          this.loads.set(id, entry);
        }
        return entry.promise;
      }),
    );
    return Promise.all(loads).then(() => undefined);
  }

  /** Whether the namespaces are here (or failed for good) in the language and the fallback; without `load`, there is nothing to wait for. */
  hasLoaded(namespaces: readonly string[]): boolean {
    if (!this.load) return true;
    return this.languagesOf(this.language).every((lng) =>
      namespaces.every((ns) => this.texts.has(`${lng}|${ns}`) || this.loads.get(`${lng}|${ns}`)?.done),
    );
  }

  /** Switches once the namespaces in use have come in the language, so no screen shows keys meanwhile; the last switch asked for wins. */
  async changeLanguage(language: string): Promise<void> {
    this.languageWanted = language;
    await this.loadNamespaces([...this.namespaces], language);
    if (this.languageWanted !== language) return;
    this.language = language;
    for (const listener of this.listeners) listener();
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getLanguage = (): string => this.language;

  private find(key: string, ns: string, count: number | undefined): string | undefined {
    for (const language of this.languagesOf(this.language)) {
      const texts = this.texts.get(`${language}|${ns}`);
      const form = count === undefined ? undefined : cached(pluralRules, language, (l) => new Intl.PluralRules(l)).select(count);
      const text = (form && textAt(texts, `${key}_${form}`)) ?? textAt(texts, key);
      if (text !== undefined) return text;
    }
    return undefined;
  }

  private split(key: string, ns: string): [string, string] {
    const colon = key.indexOf(':');
    return colon > 0 ? [key.slice(colon + 1), key.slice(0, colon)] : [key, ns];
  }

  t = (key: string, options?: TOptions, ns = DEFAULT_NAMESPACE): string => {
    const [path, namespace] = this.split(key, ns);
    const text = this.find(path, namespace, options?.count) ?? options?.defaultValue ?? path;
    return interpolate(text, options ?? {}, this.language);
  };

  exists = (key: string): boolean => this.find(...this.split(key, DEFAULT_NAMESPACE), undefined) !== undefined;

  /** A `t` reading `ns` first, the same function until the language changes (effects may depend on it). */
  fixedT(ns: string): TFunction {
    const id = `${this.language}|${ns}`;
    let t = this.fixedTs.get(id);
    if (!t) {
      t = (key, options) => this.t(key, options, ns);
      this.fixedTs.set(id, t);
    }
    return t;
  }
}

/** The app's translations, started by app/i18n.ts (tests hand them their texts instead). */
export const i18n = new Translations();
