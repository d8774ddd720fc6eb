import { ENVIRONMENT_SWITCHES, environmentDomain, type Environment, type EnvironmentSwitch } from '@pim/contract';
import { apacheVirtualHost, type ServerUrls } from './apache-config.js';
import type { EnvironmentRow } from './repository.js';

/** An environment as the API shows it, with its derived domain and Apache configuration. */
export function presentEnvironment(row: EnvironmentRow, server: ServerUrls): Environment {
  const domain = row.address ? (environmentDomain(row.address) ?? '') : '';
  const switches = Object.fromEntries(ENVIRONMENT_SWITCHES.map((name) => [name, row.switches[name] === true])) as Record<
    EnvironmentSwitch,
    boolean
  >;
  const index = row.search_index_id && row.search_index_name !== null ? { uuid: row.search_index_id, name: row.search_index_name } : null;
  return {
    uuid: row.id,
    title: row.title,
    elasticSearchIndex: index,
    path: row.path,
    address: row.address,
    domain,
    generateApacheConfig: apacheVirtualHost(
      { uuid: row.id, title: row.title, path: row.path, domain, address: row.address, indexName: index?.name ?? null },
      server,
    ),
    about: row.about,
    mainText: row.main_text,
    searchLabel: row.search_label,
    logoClass: row.logo_class,
    topBarClasses: row.top_bar_classes,
    instructions: row.instructions,
    ...switches,
  };
}
