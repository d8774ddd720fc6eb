import { waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Translations } from '../i18n/translations';
import { jsonResponse, stubFetch } from '../test/render';
import { fetchTexts, initI18n, loadNamespaces } from './i18n';

const locale = (lng: string, ns: string) => `${import.meta.env.BASE_URL}locales/${lng}/${ns}.json`;

/** A server that holds every answer until the test lets them go, noting what was asked meanwhile. */
function heldLocales() {
  const asked: string[] = [];
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  stubFetch(async (url) => {
    asked.push(url.pathname);
    await released;
    return jsonResponse({ title: url.pathname });
  });
  return { asked, release };
}

describe('translations', () => {
  it("fetches a screen's namespace beside its code, before the common one has come, once each", async () => {
    localStorage.setItem('language', 'nl');
    const server = heldLocales();
    // An instance of its own: the test setup has given the shared one its texts already.
    const instance = new Translations();
    const ready = initI18n(instance);
    const screen = loadNamespaces(['imagesets']);
    await waitFor(() =>
      expect([...server.asked].sort()).toEqual(
        [locale('en', 'common'), locale('en', 'imagesets'), locale('nl', 'common'), locale('nl', 'imagesets')].sort(),
      ),
    );
    server.release();
    await Promise.all([ready, screen]);
    expect(instance.t('imagesets:title')).toBe(locale('nl', 'imagesets'));
    expect(instance.t('title')).toBe(locale('nl', 'common'));
    expect(server.asked).toHaveLength(4);
  });

  it('asks again after a server error, not for a file that is missing', async () => {
    const answers: Record<string, number[]> = { [locale('en', 'settings')]: [503, 200], [locale('en', 'jobs')]: [404] };
    const fetchMock = stubFetch((url) => {
      const status = answers[url.pathname]?.shift() ?? 404;
      return status === 200 ? jsonResponse({ title: 'Settings' }) : new Response('', { status });
    });
    const instance = new Translations();
    instance.start('en', fetchTexts);
    await instance.loadNamespaces(['settings']);
    await instance.loadNamespaces(['jobs']);
    await instance.loadNamespaces(['jobs']);
    expect(instance.t('settings:title')).toBe('Settings');
    expect(instance.t('jobs:title')).toBe('title');
    const paths = fetchMock.mock.calls.map(([input]) => new URL(String(input), 'http://localhost').pathname);
    expect(paths.filter((p) => p === locale('en', 'settings'))).toHaveLength(2);
    expect(paths.filter((p) => p === locale('en', 'jobs'))).toHaveLength(1);
  });
});
