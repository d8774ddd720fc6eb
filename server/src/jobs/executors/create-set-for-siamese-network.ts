import type { Principal } from '../../platform/auth/principal.js';
import { badRequest } from '../../platform/errors.js';
import type { Services } from '../../services.js';
import type { Executor } from '../executor.js';
import { jobPrincipal, jobSetId } from '../job-owner.js';
import { fitSetName } from '../set-name.js';

/** Images read per query; their values are read and placed together. */
const PAGE_SIZE = 50;

/** What one metadata field contributes: its label and what the job did with it. */
interface FieldOutcome {
  field: string;
  label: string;
  values: number;
  imagesWithoutValue: number;
}

/**
 * CreateSetForSiameseNetwork: for each chosen metadata field, a sub-set of the set per value the
 * set's images have ("<field label>: <value>"), holding the images with that value, the training
 * classes of a Siamese network. Images without a value are counted, not placed. Running it again
 * finds the sub-sets by name and adds only images not in them yet; the sub-sets are the owner's.
 */
export const createSetForSiameseNetwork: Executor = async (ctx) => {
  const owner = jobPrincipal(ctx);
  const setId = jobSetId(ctx);
  const fieldIds = ctx.job.settings.pimFieldUuids ?? [];
  if (fieldIds.length === 0) throw badRequest('Choose the metadata fields whose values make the sub-sets.');
  const { documentImages, fieldSets, metadata, imageSetHierarchy } = ctx.services;
  await ctx.services.imageSets.get(owner, setId);
  const labels = new Map<string, string>();
  for (const fieldId of fieldIds) {
    const set = await fieldSets.setOfFields(owner, [fieldId]);
    labels.set(fieldId, set.fields.find((f) => f.id === fieldId)!.label);
  }
  const outcomes = new Map(fieldIds.map((id): [string, FieldOutcome] => [id, { field: id, label: labels.get(id)!, values: 0, imagesWithoutValue: 0 }]));
  const subsets = new SubsetsByName(ctx.services, owner, setId);
  let placed = 0;
  let done = 0;
  let total: number | null = null;
  for (let page = 0; total === null || page * PAGE_SIZE < total; page += 1) {
    ctx.signal.throwIfAborted();
    const batch = await documentImages.pageOfSet(owner, setId, { page, pageSize: PAGE_SIZE, sort: 'pageorder', desc: false });
    total = batch.total;
    if (batch.details.length === 0) break;
    const imageIds = batch.details.map((d) => d.image.id);
    for (const [fieldId, outcome] of outcomes) {
      const values = await metadata.valuesOfImages(owner, fieldId, imageIds);
      outcome.imagesWithoutValue += imageIds.filter((id) => !values.has(id)).length;
      const byValue = new Map<string, string[]>();
      for (const imageId of imageIds) {
        for (const value of values.get(imageId) ?? []) byValue.set(value, [...(byValue.get(value) ?? []), imageId]);
      }
      for (const [value, images] of byValue) {
        const subsetId = await subsets.idOf(outcome, value);
        placed += await imageSetHierarchy.addImages(owner, subsetId, images);
      }
    }
    done += imageIds.length;
    await ctx.progress(done, total, `Sorted ${done} of ${total} images into ${subsets.count} sub-sets`);
  }
  ctx.note({
    images: done,
    subsetsCreated: subsets.created,
    subsetsReused: subsets.count - subsets.created,
    imagesPlaced: placed,
    fields: [...outcomes.values()],
  });
};

/** The set's sub-sets by name, made or found once per run. */
class SubsetsByName {
  private readonly ids = new Map<string, string>();
  created = 0;

  constructor(
    private readonly services: Services,
    private readonly owner: Principal,
    private readonly setId: string,
  ) {}

  get count(): number {
    return this.ids.size;
  }

  async idOf(outcome: FieldOutcome, value: string): Promise<string> {
    const name = subsetName(outcome.label, value);
    let id = this.ids.get(name);
    if (id === undefined) {
      const found = await this.services.imageSetHierarchy.subsetNamed(this.owner, this.setId, name);
      id = found.id;
      this.ids.set(name, id);
      outcome.values += 1;
      if (found.created) this.created += 1;
    }
    return id;
  }
}

/** "<field label>: <value>" on one line, within the longest set name. */
export function subsetName(label: string, value: string): string {
  return fitSetName(`${label.trim()}: ${value}`);
}
