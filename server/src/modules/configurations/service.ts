import { randomUUID } from 'node:crypto';
import { ROLE } from '@pim/contract';
import type { Principal } from '../../platform/auth/principal.js';
import { requireRole } from '../../platform/auth/policy.js';
import { conflict, notFound } from '../../platform/errors.js';
import type { ConfigurationRepository, ConfigurationRow } from './repository.js';

/** A save request as the contract parsed it: key trimmed, value defaulted. */
type ParsedRequest = { key: string; value: string };

/** Configurations are server settings: only administrators read or change them. */
export class ConfigurationService {
  constructor(private readonly configurations: ConfigurationRepository) {}

  list(principal: Principal | null): Promise<ConfigurationRow[]> {
    requireRole(principal, ROLE.ADMIN);
    return this.configurations.list();
  }

  /** By uuid, or by the serial id the spec's `GET pim/configuration/{id}` names. */
  async get(principal: Principal | null, id: string): Promise<ConfigurationRow> {
    requireRole(principal, ROLE.ADMIN);
    const row = /^\d+$/.test(id) ? await this.configurations.findById(Number(id)) : await this.configurations.findByUuid(id.toLowerCase());
    if (!row) throw missing(id);
    return row;
  }

  async create(principal: Principal | null, input: ParsedRequest): Promise<ConfigurationRow> {
    requireRole(principal, ROLE.ADMIN);
    const row = await this.configurations.create({ uuid: randomUUID(), key: input.key, value: input.value });
    if (!row) throw taken(input.key);
    return row;
  }

  async update(principal: Principal | null, uuid: string, input: ParsedRequest): Promise<ConfigurationRow> {
    requireRole(principal, ROLE.ADMIN);
    const outcome = await this.configurations.update(uuid, { key: input.key, value: input.value });
    if (outcome === 'missing') throw missing(uuid);
    if (outcome === 'taken') throw taken(input.key);
    return outcome;
  }

  async delete(principal: Principal | null, uuid: string): Promise<void> {
    requireRole(principal, ROLE.ADMIN);
    if (!(await this.configurations.delete(uuid))) throw missing(uuid);
  }
}

const missing = (id: string) => notFound(`There is no configuration with id ${id}.`);
const taken = (key: string) => conflict(`A configuration with the key "${key}" already exists: edit that one or choose another key.`);
