import { useQuery } from '@tanstack/react-query';
import { headersFor } from '../../components/image-viewer/image-viewer';
import type { TFunction } from '../../i18n/translations';
import { useAuthHeaders } from '../../session/auth-headers';
import { readManifestText, type ManifestProblem, type ManifestReading } from './manifest-canvases';

/**
 * The manifest at `uri`, read for the annotator. Our token goes with the request only when the
 * manifest is on our own server. An answer that is JSON is read whatever its status (error replies
 * carry their message); anything else that is not OK fails with its status and text.
 */
async function fetchManifest(uri: string, headers: Record<string, string>, signal: AbortSignal): Promise<ManifestReading> {
  const response = await fetch(uri, { headers: { Accept: 'application/ld+json, application/json', ...headers }, signal });
  const text = await response.text();
  const reading = readManifestText(text);
  if (!response.ok && !reading.ok && reading.problem.kind === 'notJson') {
    throw new Error(`HTTP ${response.status}${text ? `: ${text.slice(0, 200)}` : ''}`);
  }
  return reading;
}

/** headersFor, for an address typed by anyone: one that is no URL at all gets no token (and fails to load). */
function headersForAddress(uri: string, authHeaders: Record<string, string>): Record<string, string> {
  try {
    return headersFor(uri, authHeaders);
  } catch {
    return {};
  }
}

export function useManifest(uri: string) {
  const headers = headersForAddress(uri, useAuthHeaders());
  const headerKey = JSON.stringify(headers);
  return useQuery({
    queryKey: ['annotator-manifest', uri, headerKey],
    queryFn: ({ signal }) => fetchManifest(uri, headers, signal),
    retry: false,
  });
}

/** The sentence the screen shows for a manifest it cannot annotate. */
export function manifestProblemText(t: TFunction, problem: ManifestProblem): string {
  switch (problem.kind) {
    case 'serverError':
      return t('errors.serverError', { message: problem.message });
    case 'noCanvases':
      return t('errors.noCanvases');
    case 'noImages':
      return t('errors.noImages');
    case 'notJson':
      return t('errors.notJson');
    case 'unreadable':
      return t('errors.unreadable', { message: problem.message });
    case 'notManifest':
      return problem.type ? t('errors.notManifestType', { type: problem.type }) : t('errors.notManifest');
  }
}
