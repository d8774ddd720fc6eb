import { ROLE } from '@pim/contract';
import type { Principal } from '../platform/auth/principal.js';
import { badRequest } from '../platform/errors.js';
import type { JobContext, RunningJob } from './executor.js';

/**
 * Who an executor acts as: the job's owner, with their roles and groups as they are now, so the
 * services check its steps as they check the owner's requests. A job without an owner was made
 * with an API key; a key acts with its roles only, and only one with ADMIN may write to a set
 * (the queue checked that at creation), so such a job acts as an ADMIN key.
 */
export async function jobPrincipal(ctx: Pick<JobContext, 'job' | 'services'>): Promise<Principal> {
  const { job, services } = ctx;
  if (job.ownerId) return services.users.jobPrincipal(job.ownerId);
  return { kind: 'apikey', apiKeyId: `job:${job.uuid}`, userName: `job ${job.id}`, userId: null, roles: [ROLE.AUTHENTICATED, ROLE.ADMIN] };
}

/** The image set a job works on; the queue asks for one, but a job made by hand may lack it. */
export function jobSetOf(job: RunningJob): string {
  if (!job.setId) throw badRequest(`A ${job.type} job works on an image set: choose one.`);
  return job.setId;
}
