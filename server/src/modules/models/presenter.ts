import { MODEL_KIND_INFO, type Model } from '@pim/contract';
import { languageOf } from './languages.js';
import type { ModelRecord } from './repository.js';

/** A model as lists and detail pages show it; Kraken and Tesseract 4 call their label a title. */
export function presentModel(model: ModelRecord): Model {
  return {
    uuid: model.id,
    kind: model.kind,
    label: model.label,
    ...(MODEL_KIND_INFO[model.kind].nameField === 'title' ? { title: model.label } : {}),
    language: languageOf(model.language),
    publicModel: model.isPublic,
    owner: model.owner && { uuid: model.owner.id, name: model.owner.name },
    fileName: model.file.originalName,
    size: model.file.sizeBytes,
    properties: model.properties,
    created: model.createdAt.toISOString(),
    updated: model.updatedAt.toISOString(),
  };
}
