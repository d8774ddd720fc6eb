import type { NamedRef, UploadResult } from '@pim/contract';
import { notFound } from '../../platform/errors.js';
import type { NewDocumentImage } from './repository.js';

/** The set passed the access check, then was deleted before the upload's rows were written. */
export function setGone(setId: string) {
  return notFound(`There is no image set with id ${setId}: it was deleted during the upload.`);
}

/** What an upload of images (or a PDF) answers: the images it added and a sentence saying so. */
export function result(kind: UploadResult['kind'], fileName: string, images: NewDocumentImage[], message: string): UploadResult {
  const documentImages: NamedRef[] = images.map((i) => ({ uuid: i.id, name: i.label }));
  return { kind, fileName, documentImages, transcriptions: [], message };
}
