import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_APP_CONFIG, loadAppConfig } from './app-config';

function pageWithConfig(text: string): void {
  const element = document.createElement('script');
  element.id = 'pim-app-config';
  element.type = 'application/json';
  element.textContent = text;
  document.head.append(element);
}

describe('loadAppConfig', () => {
  afterEach(() => document.getElementById('pim-app-config')?.remove());

  it('takes the configuration the server wrote into the page, at once', () => {
    pageWithConfig(JSON.stringify({ apiBase: '/pim-api/', providerName: 'Keycloak' }));
    expect(loadAppConfig()).toEqual({ apiBase: '/pim-api/', providerName: 'Keycloak' });
  });

  it('asks for app-config.json where the page has none, or one it cannot read, and starts with the defaults when that fails too', async () => {
    for (const text of [undefined, '{"apiBase":', JSON.stringify({ apiBase: 3 })]) {
      if (text !== undefined) pageWithConfig(text);
      const loaded = loadAppConfig('http://127.0.0.1:9/app-config.json');
      expect(loaded, text).toBeInstanceOf(Promise);
      expect(await loaded, text).toEqual(DEFAULT_APP_CONFIG);
      document.getElementById('pim-app-config')?.remove();
    }
  });
});
