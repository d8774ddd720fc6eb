import type { ElasticConfig } from '../../../config.js';

/**
 * Our index names and the cluster's: `charters` is `pim-charters` there (ELASTICSEARCH_INDEX_PREFIX),
 * so PIM never touches the indices of others on a shared cluster.
 */
export function clusterIndex(config: ElasticConfig, name: string): string {
  return `${config.indexPrefix}${name}`;
}

/** The name a hit's `_index` has for our callers; a name without our prefix is left as it is. */
export function ourIndex(config: ElasticConfig, name: string): string {
  return name.startsWith(config.indexPrefix) ? name.slice(config.indexPrefix.length) : name;
}

/** `/pim-a,pim-b`: the path of these indices, each name percent-encoded (names may hold `%`, `&`, non-ASCII). */
export function indexPath(config: ElasticConfig, names: string[]): string {
  return `/${names.map((name) => encodeURIComponent(clusterIndex(config, name))).join(',')}`;
}
