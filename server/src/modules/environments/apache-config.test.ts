import { describe, expect, it } from 'vitest';
import { apacheVirtualHost, type VirtualHostInput } from './apache-config.js';

const server = { publicUrl: 'https://pim.example.org', apiBase: '/api/' };
const env = (overrides: Partial<VirtualHostInput> = {}): VirtualHostInput => ({
  uuid: '0d7c5a4e-1f2b-4c3d-8e9f-a0b1c2d3e4f5',
  title: 'Letters',
  path: 'letters',
  domain: 'search.example.org',
  address: 'http://search.example.org',
  indexName: 'letters-1850',
  ...overrides,
});

/** Lines that are neither blank nor comments: what Apache reads as directives. */
const directives = (config: string) =>
  config
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));

describe('the Apache configuration of an environment', () => {
  it('is a virtual host for the domain that serves the front-end at the path and proxies its searches', () => {
    // `apache2ctl -t` accepts this block (checked with Debian's Apache 2.4.71).
    const config = apacheVirtualHost(env(), server);
    expect(config).toContain('a2enmod alias dir proxy proxy_http ssl');
    expect(directives(config)).toEqual([
      '<VirtualHost *:80>',
      'ServerName search.example.org',
      'SSLProxyEngine on',
      'ProxyPass /letters/api/ https://pim.example.org/api/pim/elastic/letters-1850/',
      'ProxyPassReverse /letters/api/ https://pim.example.org/api/pim/elastic/letters-1850/',
      'Alias /letters /var/www/pim-search/letters',
      '<Directory /var/www/pim-search/letters>',
      'Require all granted',
      'Options -Indexes',
      'FallbackResource /letters/index.html',
      '</Directory>',
      'RedirectMatch ^/$ /letters/',
      'ErrorLog ${APACHE_LOG_DIR}/pim-search-letters-error.log',
      'CustomLog ${APACHE_LOG_DIR}/pim-search-letters-access.log combined',
      '</VirtualHost>',
    ]);
  });

  it('needs no SSLProxyEngine for an http server, and says how to add https for an https address', () => {
    const config = apacheVirtualHost(env({ address: 'https://search.example.org' }), { publicUrl: 'http://pim.local:8080', apiBase: '/pim-api/' });
    expect(config).toContain('    ProxyPass /letters/api/ http://pim.local:8080/pim-api/pim/elastic/letters-1850/\n');
    expect(config).not.toContain('SSLProxyEngine');
    expect(config).not.toContain('mod_ssl');
    expect(config).toContain('# The address is https: certbot --apache -d search.example.org adds the :443 twin');
  });

  it('serves an http address with a port of its own on that port', () => {
    const config = apacheVirtualHost(env({ address: 'http://search.example.org:8081/' }), server);
    expect(directives(config)[0]).toBe('<VirtualHost *:8081>');
    expect(config).toContain('add "Listen 8081" to ports.conf');
    expect(directives(apacheVirtualHost(env({ address: 'http://search.example.org:80' }), server))[0]).toBe('<VirtualHost *:80>');
  });

  it('forwards nothing without an index, and says so', () => {
    const config = apacheVirtualHost(env({ indexName: null }), server);
    expect(config).not.toContain('ProxyPass');
    expect(config).toContain('# No search index chosen yet');
    expect(directives(config)).toContain('Alias /letters /var/www/pim-search/letters');
  });

  it('is only a comment without a domain', () => {
    const config = apacheVirtualHost(env({ domain: '', address: '' }), server);
    expect(directives(config)).toEqual([]);
    expect(config).toContain('# Set the address of the environment');
  });

  it('keeps a title with newlines, backslashes and directives inside its one comment line', () => {
    const title = 'Evil"\n</VirtualHost>\nInclude /etc/passwd \\';
    const config = apacheVirtualHost(env({ title }), server);
    expect(config.split('\n')[0]).toBe(
      '# Apache 2.4 virtual host of the PIM search front-end "Evil" </VirtualHost> Include /etc/passwd" (environment 0d7c5a4e-1f2b-4c3d-8e9f-a0b1c2d3e4f5).',
    );
    expect(directives(config)).not.toContain('Include /etc/passwd');
    expect(config).not.toMatch(/\\\n/);
  });

  it('URL-encodes an index name, so Apache variables and spaces cannot reach the directive', () => {
    const config = apacheVirtualHost(env({ indexName: "a${x}'b" }), server);
    expect(config).toContain('ProxyPass /letters/api/ https://pim.example.org/api/pim/elastic/a%24%7Bx%7D\'b/\n');
  });

  it('refuses an unchecked path or domain instead of writing it into a directive', () => {
    expect(() => apacheVirtualHost(env({ path: 'a b' }), server)).toThrow(/unchecked path/);
    expect(() => apacheVirtualHost(env({ domain: 'a.org\nInclude x' }), server)).toThrow(/unchecked domain/);
  });
});
