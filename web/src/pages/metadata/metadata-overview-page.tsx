import { Alert, Anchor, Button, Group, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconDownload, IconInfoCircle } from '@tabler/icons-react';
import { useMemo } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useDownload } from '../../api/download';
import { useFieldSet } from '../../api/fieldsets';
import { metadataCsvDownload, useMetadataOverview } from '../../api/metadata';
import { useTranslation } from '../../i18n/use-translation';
import { RequireSignIn } from '../../session/require-sign-in';
import { useSession } from '../../session/session';
import { DataTable } from '../../components/data-table/data-table';
import { Spinner } from '../../components/spinner';
import { overviewColumns } from './overview-columns';
import { annotatorPath, annotatorScreenOf, type AnnotatorPlace, type AnnotatorScreen } from '../annotator/paths';

interface OverviewPlace {
  datasetUri: string;
  fieldSetId: string;
  imageUri: string | null;
  /** The annotator the overview was opened from, which its links return to. */
  screen: AnnotatorScreen;
}

function toAnnotatorPlace(place: OverviewPlace): AnnotatorPlace {
  return { uri: place.datasetUri, fieldsetid: place.fieldSetId, imageUri: place.imageUri, screen: place.screen };
}

/** The dataset's uri and, once known, the field set's name: which overview this is. */
function OverviewSubtitle({ place }: { place: OverviewPlace }) {
  const { t } = useTranslation('metadata');
  const { status } = useSession();
  // Quiet, and only once signed in: the set's name is a courtesy; the overview itself reports a set that cannot be read.
  const fieldSet = useFieldSet(status === 'signedIn' ? place.fieldSetId : null, { quiet: true });
  return (
    <Stack gap={0}>
      <Text size="sm" c="dimmed" style={{ wordBreak: 'break-all' }}>
        {t('overview.dataset', { uri: place.datasetUri })}
      </Text>
      {fieldSet.data && (
        <Text size="sm" c="dimmed">
          {t('overview.fieldSet', { name: fieldSet.data.name })}
        </Text>
      )}
    </Stack>
  );
}

/** 'Continue analyzing' returns to the annotator where the user came from; Export saves metadata.csv. */
function OverviewActions({ place }: { place: OverviewPlace }) {
  const { t } = useTranslation('metadata');
  const { download, busy } = useDownload();
  return (
    <Group gap="sm">
      <Button component={Link} to={annotatorPath(toAnnotatorPlace(place))} variant="light" leftSection={<IconArrowLeft size={16} aria-hidden />}>
        {t('overview.continue')}
      </Button>
      <Button
        variant="default"
        leftSection={<IconDownload size={16} aria-hidden />}
        loading={busy !== null}
        onClick={() => void download(metadataCsvDownload(place.datasetUri, place.fieldSetId))}
      >
        {t('overview.export')}
      </Button>
    </Group>
  );
}

function NothingAnnotated({ place }: { place: OverviewPlace }) {
  const { t } = useTranslation('metadata');
  return (
    <Alert color="blue" icon={<IconInfoCircle aria-hidden />} title={t('overview.emptyTitle')}>
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{t('overview.empty')}</Text>
        <Anchor component={Link} size="sm" to={annotatorPath(toAnnotatorPlace(place))}>
          {t('overview.startAnnotating')}
        </Anchor>
      </Stack>
    </Alert>
  );
}

function OverviewTable({ place }: { place: OverviewPlace }) {
  const { t } = useTranslation('metadata');
  const overview = useMetadataOverview(place.datasetUri, place.fieldSetId);
  const { data } = overview;
  const columns = useMemo(
    () => (data ? overviewColumns(data, { datasetUri: place.datasetUri, fieldSetId: place.fieldSetId, screen: place.screen }) : []),
    [data, place.datasetUri, place.fieldSetId, place.screen],
  );
  if (overview.isPending) return <Spinner />;
  if (overview.isError) {
    return (
      <Alert color="red" title={t('overview.loadFailedTitle')}>
        {overview.error.message}
      </Alert>
    );
  }
  if (overview.data.data.length === 0) return <NothingAnnotated place={place} />;
  // The table is drawn only with its columns known: the state in the address is checked against them.
  return <DataTable label={t('overview.title')} columns={columns} data={overview.data.data} />;
}

/** The spec's message for a missing fieldsetid, and one in the same vein for a missing uri. */
function MissingParameters({ uri, fieldSetId }: { uri: string | null; fieldSetId: string | null }) {
  const { t } = useTranslation('metadata');
  return (
    <Alert color="red">
      <Stack gap={4}>
        {!uri && <Text size="sm">{t('overview.noUri')}</Text>}
        {!fieldSetId && <Text size="sm">{t('overview.noFieldsetid')}</Text>}
      </Stack>
    </Alert>
  );
}

/**
 * /pim/metadataoverview?uri=&fieldsetid=[&imageUri][&screen]: every annotated image of a dataset under a
 * field set, one row per image and one column per field.
 */
export function MetadataOverviewPage() {
  const { t } = useTranslation('metadata');
  const [searchParams] = useSearchParams();
  const uri = searchParams.get('uri');
  const fieldSetId = searchParams.get('fieldsetid');
  const place = uri && fieldSetId ? { datasetUri: uri, fieldSetId, imageUri: searchParams.get('imageUri'), screen: annotatorScreenOf(searchParams) } : null;
  return (
    <Stack gap="md">
      <Stack gap={4}>
        <Title order={2}>{t('overview.title')}</Title>
        {place && <OverviewSubtitle place={place} />}
      </Stack>
      {place ? (
        <RequireSignIn>
          <OverviewActions place={place} />
          <OverviewTable place={place} />
        </RequireSignIn>
      ) : (
        <MissingParameters uri={uri} fieldSetId={fieldSetId} />
      )}
    </Stack>
  );
}
