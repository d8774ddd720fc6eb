import { DESCRIBE_IMAGE_FILE_FIELD, describeImageResponseSchema } from '@pim/contract';
import { i18n } from '../i18n/translations';
import { ApiError, apiFetch } from './client';

/** What became of one image: the server's description, or why there is none (spec: 'Unexpected server response: {text}'). */
export interface ImageDescriptionOutcome {
  ok: boolean;
  text: string;
}

/**
 * `POST pim/describeimage`: the image as the one part `filepond`; the answer is keyed by its file
 * name. Never throws: a refusal or a failed request is an outcome whose text says what happened,
 * shown on the image's row rather than in a toast.
 */
export async function describeImage(file: File): Promise<ImageDescriptionOutcome> {
  const body = new FormData();
  body.append(DESCRIBE_IMAGE_FILE_FIELD, file, file.name);
  try {
    const answer = await apiFetch('pim/describeimage', { method: 'POST', body, schema: describeImageResponseSchema, quiet: true });
    // Keyed by the name the server read; one image per request, so its one entry is this file's.
    const text = answer[file.name] ?? Object.values(answer)[0];
    if (text === undefined) return { ok: false, text: i18n.t('common:errors.unexpectedResponse', { text: JSON.stringify(answer) }) };
    return { ok: true, text };
  } catch (error) {
    const said = error instanceof ApiError ? (error.response?.message ?? error.bodyText) || error.message : error instanceof Error ? error.message : String(error);
    return { ok: false, text: i18n.t('common:errors.unexpectedResponse', { text: said }) };
  }
}
