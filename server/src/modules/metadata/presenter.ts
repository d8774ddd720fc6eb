import type { AnnotatedDataset, AnnotatedImage, MetadataOverview, StoredMetadataValue } from '@pim/contract';
import { toCsv } from './csv.js';
import type { MetadataOverviewRecord, StoredValue } from './service.js';

export function presentStoredValue(value: StoredValue): StoredMetadataValue {
  return { field: { id: value.fieldId }, value: value.value, display: value.display };
}

/** The overview table: columns by field name, every row with every column ('' where nothing is stored). */
export function presentOverview(overview: MetadataOverviewRecord): MetadataOverview {
  return {
    fields: overview.fields.map((f) => f.name),
    labels: overview.fields.map((f) => f.label),
    data: overview.rows.map((row) => Object.fromEntries(overview.fields.map((f) => [f.name, row.get(f.id) ?? '']))),
  };
}

/** The overview as `metadata.csv`: a header row of field names, then one row per image. */
export function presentOverviewCsv(overview: MetadataOverviewRecord): string {
  return toCsv(
    overview.fields.map((f) => f.name),
    overview.rows.map((row) => overview.fields.map((f) => row.get(f.id) ?? '')),
  );
}

export function presentAnnotatedDataset(dataset: { datasetUri: string; datasetName: string }): AnnotatedDataset {
  return { datasetUri: dataset.datasetUri, datasetName: dataset.datasetName };
}

export function presentAnnotatedImage(image: { uri: string; label: string | null; fieldSets: { id: string; name: string }[] }): AnnotatedImage {
  return { uri: image.uri, label: image.label, fieldSets: image.fieldSets.map((s) => ({ uuid: s.id, name: s.name })) };
}
