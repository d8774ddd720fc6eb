import { randomUUID } from 'node:crypto';
import { ENVIRONMENT_SWITCHES, ROLE, type SaveEnvironment } from '@pim/contract';
import type { Principal } from '../../platform/auth/principal.js';
import { requireRole } from '../../platform/auth/policy.js';
import { badRequest, conflict, notFound } from '../../platform/errors.js';
import type { EnvironmentRepository, EnvironmentRow, EnvironmentValues, SaveOutcome } from './repository.js';

/** Environments configure the public search front-ends: only administrators read or change them. */
export class EnvironmentService {
  constructor(private readonly environments: EnvironmentRepository) {}

  list(principal: Principal | null): Promise<EnvironmentRow[]> {
    requireRole(principal, ROLE.ADMIN);
    return this.environments.list();
  }

  async get(principal: Principal | null, id: string): Promise<EnvironmentRow> {
    requireRole(principal, ROLE.ADMIN);
    const row = await this.environments.findById(id);
    if (!row) throw missing(id);
    return row;
  }

  async create(principal: Principal | null, input: SaveEnvironment): Promise<EnvironmentRow> {
    requireRole(principal, ROLE.ADMIN);
    const id = randomUUID();
    return this.outcome(await this.environments.save(id, values(input), 'create'), id, input);
  }

  async update(principal: Principal | null, id: string, input: SaveEnvironment): Promise<EnvironmentRow> {
    requireRole(principal, ROLE.ADMIN);
    return this.outcome(await this.environments.save(id, values(input), 'update'), id, input);
  }

  private outcome(outcome: SaveOutcome, id: string, input: SaveEnvironment): EnvironmentRow {
    if (outcome === 'missing') throw missing(id);
    if (outcome === 'pathTaken') throw conflict(`An environment with the path "${input.path}" already exists: choose another path.`);
    if (outcome === 'noSuchIndex') throw badRequest(`There is no search index with id ${input.elasticSearchIndex?.uuid}.`);
    return outcome;
  }
}

function values(input: SaveEnvironment): EnvironmentValues {
  return {
    title: input.title,
    search_index_id: input.elasticSearchIndex?.uuid ?? null,
    path: input.path,
    address: input.address,
    about: input.about,
    main_text: input.mainText,
    search_label: input.searchLabel,
    logo_class: input.logoClass,
    top_bar_classes: input.topBarClasses,
    instructions: input.instructions,
    switches: Object.fromEntries(ENVIRONMENT_SWITCHES.map((name) => [name, input[name]])),
  };
}

const missing = (id: string) => notFound(`There is no environment with id ${id}.`);
