import {
  jobPageSchema,
  jobSchema,
  jobTypeListSchema,
  P2PALA_OPTIONS,
  p2palaOptionListSchema,
  subJobListSchema,
  type CreateJobInput,
  type Job,
  type JobPage,
  type P2palaOptionList,
} from '@pim/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { apiFetch } from './client';

/** How often the list asks again while a job on it is queued or running. */
export const JOB_POLL_MS = 3000;

/** The P2PaLA and Siamese network jobs' own records (`GET pim/p2palajob`, `GET pim/siamesejob`). */
export type SubJobKind = 'p2pala' | 'siamese';
const SUB_JOB_PATHS: Record<SubJobKind, string> = { p2pala: 'pim/p2palajob', siamese: 'pim/siamesejob' };

export const jobKeys = {
  all: ['jobs'] as const,
  lists: ['jobs', 'list'] as const,
  page: (onlyOwnData: boolean, page: number, pageSize: number) => ['jobs', 'list', { onlyOwnData, page, pageSize }] as const,
  types: ['jobs', 'types'] as const,
  options: (list: P2palaOptionList) => ['jobs', 'options', list] as const,
  subJobs: (kind: SubJobKind, onlyOwnData: boolean) => ['jobs', 'sub', kind, { onlyOwnData }] as const,
};

const jobPath = (uuid: string) => `pim/jobs/${encodeURIComponent(uuid)}`;

/** Still to finish: the list keeps asking while one of these is on it. */
export function isActive(job: Job): boolean {
  return job.state === 'notStarted' || job.state === 'running';
}

/** The poll interval for a page of jobs: every few seconds while one is queued or running, else none. */
export function jobPollInterval(page: JobPage | undefined): number | false {
  return page?.results.some(isActive) ? JOB_POLL_MS : false;
}

/**
 * `GET pim/jobs?page=&pageSize=&onlyOwnData=`: one page, newest first. It refreshes by itself while
 * a job on the page is still to finish, and keeps the page it shows while the next one comes.
 */
export function useJobPage(onlyOwnData: boolean, page: number, pageSize: number) {
  return useQuery({
    queryKey: jobKeys.page(onlyOwnData, page, pageSize),
    queryFn: ({ signal }) => apiFetch('pim/jobs', { query: { page, pageSize, onlyOwnData }, schema: jobPageSchema, signal }),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => jobPollInterval(query.state.data),
  });
}

/** `GET pim/jobs/types`: every type, where it runs and whether a worker serving it was seen. */
export function useJobTypes() {
  return useQuery({
    queryKey: jobKeys.types,
    queryFn: ({ signal }) => apiFetch('pim/jobs/types', { schema: jobTypeListSchema, signal }),
  });
}

/** `GET pim/p2palajob/approxalg|outmode|linealg|loglevel`; the contract's list stands in until it arrives. */
export function useP2palaOptions(list: P2palaOptionList, enabled: boolean) {
  return useQuery({
    queryKey: jobKeys.options(list),
    queryFn: ({ signal }) => apiFetch(`pim/p2palajob/${list}`, { schema: p2palaOptionListSchema, signal }),
    placeholderData: [...P2PALA_OPTIONS[list]],
    staleTime: Infinity,
    enabled,
  });
}

/**
 * `POST pim/jobs`: what the form (or Create Epub) sends. Only the new job's uuid is read from the
 * answer, so the screens do not depend on the rest of it.
 */
export function useCreateJob() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: CreateJobInput) => apiFetch('pim/jobs', { method: 'POST', body: request, schema: jobSchema.pick({ uuid: true }) }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: jobKeys.lists }),
  });
}

/** `POST pim/jobs/{uuid}/cancel` (not started) or `.../restart` (running or failed), then the list again. */
export function useJobAction(action: 'cancel' | 'restart') {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (uuid: string) => apiFetch(`${jobPath(uuid)}/${action}`, { method: 'POST' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: jobKeys.all }),
  });
}

/** `GET pim/p2palajob` or `GET pim/siamesejob`: the records, or under 'Own data only' the caller's. */
export function useSubJobs(kind: SubJobKind, onlyOwnData: boolean) {
  return useQuery({
    queryKey: jobKeys.subJobs(kind, onlyOwnData),
    queryFn: ({ signal }) => apiFetch(SUB_JOB_PATHS[kind], { query: { onlyOwnData }, schema: subJobListSchema, signal }),
  });
}

/**
 * `POST pim/p2palajob/{uuid}/cancel` or `pim/siamesejob/{uuid}/cancel`: the list is read again only
 * on the 204 the spec names (part 2 §8); any other answer is reported and changes nothing.
 */
export function useCancelSubJob(kind: SubJobKind) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (uuid: string) =>
      apiFetch(`${SUB_JOB_PATHS[kind]}/${encodeURIComponent(uuid)}/cancel`, { method: 'POST', schema: z.null() }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: jobKeys.all }),
  });
}
