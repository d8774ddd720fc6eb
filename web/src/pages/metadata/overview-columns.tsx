import { Anchor } from '@mantine/core';
import { URI_FIELD_NAME, type MetadataOverview } from '@pim/contract';
import { Link } from 'react-router';
import type { DataTableColumn } from '../../components/data-table/column-meta';
import { useTranslation } from '../../i18n/use-translation';
import { ReadMore } from '../documentimages/read-more';
import { annotatorPath, type AnnotatorScreen } from '../annotator/paths';

/** One annotated image: its values keyed by field name. */
export type OverviewRow = MetadataOverview['data'][number];

/** The header is the label a person gave the field; the name, which the CSV and the address use, is its tooltip. */
function header(label: string, name: string): DataTableColumn<OverviewRow>['header'] {
  if (label === name) return label;
  return () => <span title={name}>{label}</span>;
}

/** The image's uri opens the annotator at that image, under the same dataset and field set. */
function ImageLink({ imageUri, datasetUri, fieldSetId, screen }: { imageUri: string; datasetUri: string; fieldSetId: string; screen?: AnnotatorScreen }) {
  const { t } = useTranslation('metadata');
  if (!imageUri) return null;
  return (
    <Anchor
      component={Link}
      size="sm"
      to={annotatorPath({ uri: datasetUri, fieldsetid: fieldSetId, imageUri, screen })}
      title={t('overview.annotateImage')}
      style={{ wordBreak: 'break-all' }}
    >
      {imageUri}
    </Anchor>
  );
}

/**
 * One column per field of the set, in the set's order. Values are text as stored (a long note
 * cut to three lines); the field name is the column id, so sorting and filters in the address
 * keep working when a label changes.
 */
export function overviewColumns(
  overview: MetadataOverview,
  place: { datasetUri: string; fieldSetId: string; screen?: AnnotatorScreen },
): DataTableColumn<OverviewRow>[] {
  return overview.fields.map((name, index) => ({
    id: name,
    accessorFn: (row: OverviewRow) => row[name] ?? '',
    header: header(overview.labels[index] ?? name, name),
    cell: ({ getValue }) => {
      const value = getValue<string>();
      if (name === URI_FIELD_NAME) return <ImageLink imageUri={value} datasetUri={place.datasetUri} fieldSetId={place.fieldSetId} screen={place.screen} />;
      return <ReadMore text={value} />;
    },
  }));
}
