import { ROLE } from '@pim/contract';
import type { Principal } from '../platform/auth/principal.js';
import { badRequest, forbidden } from '../platform/errors.js';
import type { JobContext } from './executor.js';

/**
 * Who a job acts as: its owner, with the roles and groups they have when it runs (so a user
 * disabled or stripped of access since cannot be acted for). A job without an owner was created
 * with an API key, which owns nothing and is in no group: it can only have passed the queue's
 * check (WRITE on the set) with the ADMIN role, so it runs as such a key.
 */
export async function jobPrincipal(ctx: JobContext): Promise<Principal> {
  const { ownerId, uuid } = ctx.job;
  if (ownerId === null) {
    return { kind: 'apikey', apiKeyId: `job:${uuid}`, userName: `job ${ctx.job.id}`, userId: null, roles: [ROLE.AUTHENTICATED, ROLE.ADMIN] };
  }
  const principal = await ctx.services.users.principalOf(ownerId);
  if (!principal) throw forbidden('The user who created this job no longer exists or has been disabled, so it cannot run for them.');
  return principal;
}

/**
 * The set a job works on, once its owner is found to hold WRITE on it, as the API would check
 * (401/404/403 with the API's message otherwise).
 */
export async function jobSet(ctx: JobContext): Promise<{ principal: Principal; setId: string }> {
  const { setId, type } = ctx.job;
  if (!setId) throw badRequest(`A ${type} job works on an image set: create it again with one.`);
  const principal = await jobPrincipal(ctx);
  await ctx.services.imageSetAccess.requireSet(principal, setId, 'WRITE');
  return { principal, setId };
}
