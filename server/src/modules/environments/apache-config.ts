import { ENVIRONMENT_PATH_PATTERN } from '@pim/contract';

/** Where the built search front-end of an environment is put on the web server. */
export const FRONT_END_ROOT = '/var/www/pim-search';

export interface VirtualHostInput {
  uuid: string;
  title: string;
  /** Checked by the contract: one URL segment of [a-z0-9_-]. */
  path: string;
  /** The address's host name (checked by the contract); empty without an address. */
  domain: string;
  address: string;
  /** The environment's search index, if one is chosen. */
  indexName: string | null;
}

export interface ServerUrls {
  /** Where browsers reach this server, without a trailing slash. */
  publicUrl: string;
  /** The API base path, starting and ending with '/'. */
  apiBase: string;
}

/**
 * Text for a comment line: Apache joins a line ending in a backslash with the next, so control
 * characters and backslashes go; nothing in a comment can then start a directive.
 */
function commentText(text: string): string {
  return [...text].map((c) => (c < ' ' || c === '\u007f' || c === '\\' ? ' ' : c)).join('').trim();
}

/**
 * An Apache 2.4 virtual host that serves the environment's public search front-end at
 * `http://{domain}/{path}/` and forwards its searches to this server's search API of the
 * environment's index. Only the checked path, domain and (URL-encoded) index name reach directives,
 * so no value can break a line or add a directive.
 */
export function apacheVirtualHost(env: VirtualHostInput, server: ServerUrls): string {
  const header = [
    `# Apache 2.4 virtual host of the PIM search front-end "${commentText(env.title)}" (environment ${env.uuid}).`,
  ];
  if (!ENVIRONMENT_PATH_PATTERN.test(env.path)) throw new Error(`Refusing an unchecked path in an Apache configuration: ${env.path}`);
  if (!env.domain) {
    return [...header, '# Set the address of the environment (e.g. https://search.example.org): its host name is the ServerName.', ''].join(
      '\n',
    );
  }
  if (!/^[a-z0-9.-]+$/.test(env.domain)) throw new Error(`Refusing an unchecked domain in an Apache configuration: ${env.domain}`);
  const dir = `${FRONT_END_ROOT}/${env.path}`;
  const https = env.address.toLowerCase().startsWith('https:');
  const search = `${server.publicUrl}${server.apiBase}pim/elastic/`;
  const proxiesToHttps = env.indexName !== null && search.startsWith('https:');
  const lines = [
    ...header,
    proxiesToHttps
      ? '# Needs mod_alias, mod_dir, mod_proxy, mod_proxy_http and mod_ssl: a2enmod alias dir proxy proxy_http ssl'
      : '# Needs mod_alias, mod_dir, mod_proxy and mod_proxy_http: a2enmod alias dir proxy proxy_http',
    `# Put the built front-end in ${dir}/.`,
  ];
  if (https) lines.push(`# The address is https: certbot --apache -d ${env.domain} adds the :443 twin of this block with its certificate.`);
  // An http address on a port of its own is served there; https runs behind certbot's :443 block.
  const port = https ? '' : new URL(env.address).port;
  if (port) lines.push(`# Apache must listen on port ${port}: add "Listen ${port}" to ports.conf if it does not yet.`);
  lines.push(`<VirtualHost *:${port || '80'}>`, `    ServerName ${env.domain}`, '');
  if (env.indexName) {
    const target = `${search}${encodeURIComponent(env.indexName)}/`;
    lines.push(`    # Searches go to PIM's search API of the index ${encodeURIComponent(env.indexName)}.`);
    if (proxiesToHttps) lines.push('    SSLProxyEngine on');
    lines.push(`    ProxyPass /${env.path}/api/ ${target}`, `    ProxyPassReverse /${env.path}/api/ ${target}`, '');
  } else {
    lines.push('    # No search index chosen yet: choose one in the environment to forward searches to PIM.', '');
  }
  lines.push(
    `    Alias /${env.path} ${dir}`,
    `    <Directory ${dir}>`,
    '        Require all granted',
    '        Options -Indexes',
    '        # The front-end is a single-page app: unknown paths load its page.',
    `        FallbackResource /${env.path}/index.html`,
    '    </Directory>',
    `    RedirectMatch ^/$ /${env.path}/`,
    '',
    `    ErrorLog \${APACHE_LOG_DIR}/pim-search-${env.path}-error.log`,
    `    CustomLog \${APACHE_LOG_DIR}/pim-search-${env.path}-access.log combined`,
    '</VirtualHost>',
    '',
  );
  return lines.join('\n');
}
