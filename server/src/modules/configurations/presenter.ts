import type { Configuration } from '@pim/contract';
import type { ConfigurationRow } from './repository.js';

export function presentConfiguration(row: ConfigurationRow): Configuration {
  return { id: row.id, uuid: row.uuid, key: row.key, value: row.value };
}
