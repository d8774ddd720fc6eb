import type { Principal } from '../platform/auth/principal.js';
import { badRequest, forbidden } from '../platform/errors.js';
import type { JobContext } from './executor.js';

/**
 * Who a job acts as: the user who created it, as they are now. Executors pass this principal to
 * the services, so a job reaches nothing its owner could not reach through the API, and a user
 * who lost access (or was disabled) since the job was queued does not keep it through the job.
 */
export async function jobOwner(ctx: JobContext): Promise<Principal> {
  const { ownerId } = ctx.job;
  if (ownerId === null) {
    throw forbidden('This job has no owner to act for: create it again while signed in as the user whose image set it works on.');
  }
  const owner = await ctx.services.users.principalOf(ownerId);
  if (!owner) throw forbidden('The user who created this job has been disabled or removed, so it cannot run with their rights.');
  return owner;
}

/** The image set a job works on; every type of this module needs one. */
export function jobSet(ctx: JobContext): string {
  if (ctx.job.setId === null) throw badRequest(`A ${ctx.job.type} job needs an image set: choose one and create the job again.`);
  return ctx.job.setId;
}
