import { type CreateJobRequest, type JobField, JOB_MODEL_FIELDS, JOB_TYPE_INFO } from '@pim/contract';
import type { Principal } from '../../platform/auth/principal.js';
import { AppError, badRequest } from '../../platform/errors.js';
import type { FieldSetService } from '../fieldsets/service.js';
import type { ModelService } from '../models/service.js';
import type { SearchIndexService } from '../searchindices/service.js';

/**
 * What a new job names besides its set must exist and be visible to its maker: the models, the
 * search index and the metadata fields of the fields its type uses. A name that is unknown, or
 * that the caller may not see, is a 400 of the request, saying which.
 */
export class JobReferences {
  constructor(
    private readonly models: ModelService,
    private readonly searchIndices: SearchIndexService,
    private readonly fieldSets: FieldSetService,
  ) {}

  async check(caller: Principal, request: CreateJobRequest): Promise<void> {
    const fields = new Set<JobField>(JOB_TYPE_INFO[request.jobType].fields);
    for (const [field, kind] of Object.entries(JOB_MODEL_FIELDS)) {
      const id = request[field as keyof CreateJobRequest];
      if (fields.has(field as JobField) && typeof id === 'string') await asRequestError(this.models.get(caller, kind, id));
    }
    if (fields.has('elasticSearchIndex') && request.elasticSearchIndex) {
      await asRequestError(this.searchIndices.get(caller, request.elasticSearchIndex));
    }
    if (fields.has('pimFieldUuids') && request.pimFieldUuids?.length) await this.fieldSets.setOfFields(caller, request.pimFieldUuids);
    if (fields.has('pimFieldSiameseLabel') && request.pimFieldSiameseLabel) await this.fieldSets.setOfFields(caller, [request.pimFieldSiameseLabel]);
  }

  async remoteOnly(caller: Principal, request: CreateJobRequest): Promise<boolean> {
    if (request.jobType !== 'SiameseNetwork') return false;
    const model = request.siameseNetworkModelId ? await this.models.get(caller, 'siamesenetwork', request.siameseNetworkModelId) : undefined;
    return needsRemoteWorker(request, model ? (model.properties.modelFormat ?? 'unknown') : undefined);
  }
}

/**
 * Whether only a remote worker may run the job: a SiameseNetwork job that trains, or that applies
 * a model this server cannot run (a TensorFlow SavedModel or Keras file; ONNX models and the
 * built-in descriptor run here).
 */
export function needsRemoteWorker(request: Pick<CreateJobRequest, 'jobType' | 'training'>, modelFormat: unknown): boolean {
  if (request.jobType !== 'SiameseNetwork') return false;
  return request.training === true || (modelFormat !== undefined && modelFormat !== 'ONNX');
}

/** A record the request names but the caller cannot find is a fault of the request (400), with the same sentence. */
async function asRequestError(lookup: Promise<unknown>): Promise<void> {
  try {
    await lookup;
  } catch (err) {
    if (err instanceof AppError && err.status === 404) throw badRequest(err.message);
    throw err;
  }
}
