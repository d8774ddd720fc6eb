import type { Principal } from '../platform/auth/principal.js';
import { badRequest } from '../platform/errors.js';
import type { JobContext } from './executor.js';

/**
 * Who a job acts as: the user or API key that made it, with the roles and groups they have now.
 * The queue resolves it when the job is claimed and refuses to run a job whose maker was disabled
 * or deleted since, so executors pass it to the services and a job reaches nothing its maker
 * could not reach through the API.
 */
export function jobPrincipal(ctx: Pick<JobContext, 'job'>): Principal {
  return ctx.job.principal;
}

/** The image set a job works on; the job form asks for one, but a job made by hand may lack it. */
export function jobSetId(ctx: Pick<JobContext, 'job'>): string {
  const { setId, type } = ctx.job;
  if (!setId) throw badRequest(`A ${type} job works on an image set: create it again with one.`);
  return setId;
}

/**
 * The set a job works on, once its maker is found to hold WRITE on it, as the API would check
 * (404/403 with the API's message otherwise).
 */
export async function jobSet(ctx: Pick<JobContext, 'job' | 'services'>): Promise<{ principal: Principal; setId: string }> {
  const setId = jobSetId(ctx);
  const principal = jobPrincipal(ctx);
  await ctx.services.imageSetAccess.requireSet(principal, setId, 'WRITE');
  return { principal, setId };
}
