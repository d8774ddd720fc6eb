import { badRequest } from '../../platform/errors.js';
import type { Executor } from '../executor.js';
import { jobPrincipal, jobSetId } from '../job-owner.js';
import { Harvester } from './harvest/harvester.js';

/**
 * HarvestIIIF: imports a IIIF Presentation 2 or 3 manifest or collection (`uri`) into the set,
 * which its owner must be able to change (see Harvester for what becomes of what). Addresses are
 * fetched with limits, and never from private networks unless PIM_HARVEST_ALLOW_PRIVATE allows.
 * Running it again imports only what is not there yet.
 */
export const harvestIiif: Executor = async (ctx) => {
  const owner = jobPrincipal(ctx);
  const setId = jobSetId(ctx);
  const uri = ctx.job.settings.uri;
  if (!uri) throw badRequest('Give the address of the IIIF manifest or collection to harvest.');
  await ctx.services.imageSetAccess.requireSet(owner, setId, 'WRITE');
  const harvester = new Harvester(ctx, owner);
  await harvester.run(uri, setId);
  const { counts, refusals } = harvester;
  ctx.note({ ...counts, refusals });
  if (counts.imported + counts.alreadyThere === 0) {
    const first = refusals[0];
    const what = counts.canvases === 0 ? 'no manifest of it could be read' : `none of its ${counts.canvases} canvases could be imported`;
    throw badRequest(`Nothing was harvested from ${uri}: ${what}${first ? ` (${first.label}: ${first.reason})` : ''}.`);
  }
};
