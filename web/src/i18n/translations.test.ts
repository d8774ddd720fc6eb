import { describe, expect, it } from 'vitest';
import { Translations, type Texts } from './translations';

function translations(language: string, texts: Record<string, Record<string, Texts>>) {
  const instance = new Translations();
  instance.language = language;
  for (const [lng, namespaces] of Object.entries(texts)) for (const [ns, bundle] of Object.entries(namespaces)) instance.addResourceBundle(lng, ns, bundle);
  return instance;
}

const texts = {
  en: {
    common: { nav: { language: 'Language' }, only: 'English only', hello: 'Hello {{name}}' },
    search: { count_one: '{{count, number}} hit', count_other: '{{count, number}} hits', sets: '{{count}} sets' },
  },
  nl: {
    common: { nav: { language: 'Taal' }, hello: 'Hallo {{name}}' },
    search: { count_one: '{{count, number}} treffer', count_other: '{{count, number}} treffers' },
  },
};

describe('translations', () => {
  it('reads a path in the default namespace, another namespace after its name, and English where the language has no text', () => {
    const i18n = translations('nl', texts);
    expect(i18n.t('nav.language')).toBe('Taal');
    expect(i18n.t('only')).toBe('English only');
    expect(i18n.t('common:nav.language')).toBe('Taal');
    expect(i18n.fixedT('search')('count', { count: 2 })).toBe('2 treffers');
    expect(i18n.fixedT('search')('common:hello', { name: 'Ada' })).toBe('Hallo Ada');
  });

  it('reads a missing text as its key without the namespace, or as the default value given', () => {
    const i18n = translations('en', texts);
    expect(i18n.t('search:no.such')).toBe('no.such');
    expect(i18n.t('nav')).toBe('nav');
    expect(i18n.t('typeSummaries.OCR', { defaultValue: 'Recognises text' })).toBe('Recognises text');
    expect(i18n.exists('search:count_one')).toBe(true);
    expect(i18n.exists('search:count')).toBe(false);
  });

  it("picks the plural form by the language's rules and formats numbers for the language", () => {
    const en = translations('en', texts).fixedT('search');
    expect([0, 1, 2].map((count) => en('count', { count }))).toEqual(['0 hits', '1 hit', '2 hits']);
    expect(en('count', { count: 1234 })).toBe('1,234 hits');
    // A key without plural forms takes the count as a value.
    expect(en('sets', { count: 3 })).toBe('3 sets');
    expect(translations('nl', texts).fixedT('search')('count', { count: 1234 })).toBe('1.234 treffers');
  });

  it('puts values in as they are, keeps a placeholder nobody gave a value for, and leaves one given as undefined empty', () => {
    const i18n = translations('en', texts);
    expect(i18n.t('hello', { name: '<b>$&</b>' })).toBe('Hello <b>$&</b>');
    expect(i18n.t('hello')).toBe('Hello {{name}}');
    expect(i18n.t('hello', { name: undefined })).toBe('Hello ');
    expect(i18n.t('hello', { name: null })).toBe('Hello ');
  });

  it("switches language once the namespaces in use have come in it, and keeps a fixed t's identity until then", async () => {
    const asked: string[] = [];
    const i18n = new Translations();
    i18n.start('en', async (lng, ns) => {
      asked.push(`${lng}/${ns}`);
      return texts[lng as 'en' | 'nl'][ns as 'common' | 'search'];
    });
    await i18n.loadNamespaces(['common', 'search']);
    const t = i18n.fixedT('search');
    expect(i18n.fixedT('search')).toBe(t);
    let changes = 0;
    i18n.subscribe(() => changes++);
    const switched = i18n.changeLanguage('nl');
    expect(i18n.language).toBe('en');
    await switched;
    expect([i18n.language, changes]).toEqual(['nl', 1]);
    expect(asked).toEqual(['en/common', 'en/search', 'nl/common', 'nl/search']);
    expect(i18n.fixedT('search')).not.toBe(t);
    expect(i18n.t('nav.language')).toBe('Taal');
  });

  it('settles a namespace that could not be had, whose texts read as their keys', async () => {
    const i18n = new Translations();
    i18n.start('en', async () => undefined);
    expect(i18n.hasLoaded(['jobs'])).toBe(false);
    await i18n.loadNamespaces(['jobs']);
    expect(i18n.hasLoaded(['jobs'])).toBe(true);
    expect(i18n.t('jobs:title')).toBe('title');
  });
});
