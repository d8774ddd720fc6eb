import type { FontDescription } from '@pim/contract';
import type { FontDescriptionRecord } from './repository.js';

/** The API shape of a font description, field by field. */
export function presentFontDescription(font: FontDescriptionRecord): FontDescription {
  return {
    uuid: font.id,
    uri: font.uri,
    name: font.name,
    type: font.type,
    license: font.license,
    handwritten: font.handwritten,
    containsLongS: font.containsLongS,
    containsLigatures: font.containsLigatures,
    romanScript: font.romanScript,
    serif: font.serif,
    hasData: font.file !== null,
    fileName: font.file?.originalName ?? null,
    sizeBytes: font.file?.sizeBytes ?? null,
    created: font.createdAt.toISOString(),
    updated: font.updatedAt.toISOString(),
  };
}
