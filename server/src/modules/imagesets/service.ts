import { randomUUID } from 'node:crypto';
import type { CreateImageSetRequest } from '@pim/contract';
import type { Principal } from '../../platform/auth/principal.js';
import { requireSignedIn, visibilityScope } from '../../platform/auth/policy.js';
import { notFound } from '../../platform/errors.js';
import type { ImageSetAccess } from './access.js';
import type { ImageSetRecord, ImageSetRepository } from './repository.js';

export class ImageSetService {
  constructor(
    private readonly sets: ImageSetRepository,
    private readonly access: ImageSetAccess,
  ) {}

  async list(principal: Principal | null, onlyOwnData: boolean): Promise<ImageSetRecord[]> {
    const caller = requireSignedIn(principal);
    return this.sets.list(visibilityScope(caller, onlyOwnData));
  }

  async get(principal: Principal | null, id: string): Promise<ImageSetRecord> {
    await this.access.requireSet(principal, id, 'READ');
    const set = await this.sets.findById(id);
    if (!set) throw notFound(`There is no image set with id ${id}.`);
    return set;
  }

  async create(principal: Principal | null, input: CreateImageSetRequest): Promise<{ uuid: string }> {
    const caller = requireSignedIn(principal);
    const id = randomUUID();
    await this.sets.create({ id, name: input.imageset, ownerId: caller.userId });
    return { uuid: id };
  }
}
