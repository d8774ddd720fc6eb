import { Alert, Anchor, Stack, Text, Title } from '@mantine/core';
import type { AnnotatedDataset, AnnotatedImage, NamedRef } from '@pim/contract';
import { IconInfoCircle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { fetchAnnotatedImages, metadataKeys, useAnnotatedDatasets } from '../../api/metadata';
import { Spinner } from '../../components/spinner';
import { Tree, TreeFolder, TreeLeaf } from '../../components/tree/tree';
import { useTranslation } from '../../i18n/use-translation';
import { useOwnDataOnly } from '../../session/own-data';
import { RequireSignIn } from '../../session/require-sign-in';
import { annotatorPath, overviewPagePath, shortUri } from '../annotator/paths';

/** The annotated images of a dataset, asked for once when its folder first opens (until something is saved). */
function useAnnotatedImages(datasetUri: string, onlyOwnData: boolean) {
  return useQuery({
    queryKey: metadataKeys.datasetImages(datasetUri, onlyOwnData),
    queryFn: ({ signal }) => fetchAnnotatedImages(datasetUri, onlyOwnData, signal),
    staleTime: Infinity,
  });
}

/** A field set an image is annotated with: opens the annotator there; the overview of the whole dataset beside it. */
function FieldSetLeaf({ dataset, image, fieldSet }: { dataset: AnnotatedDataset; image: AnnotatedImage; fieldSet: NamedRef }) {
  const { t } = useTranslation('metadata');
  const place = { uri: dataset.datasetUri, fieldsetid: fieldSet.uuid, imageUri: image.uri };
  return (
    <TreeLeaf
      label={
        <Anchor component={Link} size="sm" to={annotatorPath(place)}>
          {fieldSet.name}
        </Anchor>
      }
      actions={
        <Anchor
          component={Link}
          size="xs"
          to={overviewPagePath(place)}
          aria-label={t('datasets.overviewOf', { fieldSet: fieldSet.name, dataset: dataset.datasetName || dataset.datasetUri })}
        >
          {t('datasets.overview')}
        </Anchor>
      }
    />
  );
}

function ImageFolder({ dataset, image }: { dataset: AnnotatedDataset; image: AnnotatedImage }) {
  const { t } = useTranslation('metadata');
  // Our images by their label; images elsewhere by the end of their address. The whole address shows on hover.
  const name = image.label ?? shortUri(image.uri);
  return (
    <TreeFolder
      toggleLabel={(open) => t(open ? 'datasets.closeImage' : 'datasets.openImage', { name })}
      label={
        <Text size="sm" title={image.uri} truncate>
          {name}
        </Text>
      }
    >
      {() => image.fieldSets.map((fieldSet) => <FieldSetLeaf key={fieldSet.uuid} dataset={dataset} image={image} fieldSet={fieldSet} />)}
    </TreeFolder>
  );
}

function DatasetImages({ dataset, onlyOwnData }: { dataset: AnnotatedDataset; onlyOwnData: boolean }) {
  const { t } = useTranslation('metadata');
  const images = useAnnotatedImages(dataset.datasetUri, onlyOwnData);
  if (images.isPending) return <li><Spinner /></li>;
  if (images.isError) return <li><Text c="red" size="sm">{t('datasets.imagesFailed', { message: images.error.message })}</Text></li>;
  if (images.data.length === 0) return <li><Text c="dimmed" size="sm">{t('datasets.noImages')}</Text></li>;
  return images.data.map((image) => <ImageFolder key={image.uri} dataset={dataset} image={image} />);
}

function DatasetFolder({ dataset, onlyOwnData }: { dataset: AnnotatedDataset; onlyOwnData: boolean }) {
  const { t } = useTranslation('metadata');
  const name = dataset.datasetName || dataset.datasetUri;
  return (
    <TreeFolder
      toggleLabel={(open) => t(open ? 'datasets.close' : 'datasets.open', { name })}
      label={
        <Stack gap={0}>
          <Text size="sm" fw={600}>
            {name}
          </Text>
          <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }}>
            {dataset.datasetUri}
          </Text>
        </Stack>
      }
    >
      {() => <DatasetImages dataset={dataset} onlyOwnData={onlyOwnData} />}
    </TreeFolder>
  );
}

/** How a dataset gets here, so an empty list says what to do rather than only that it is empty. */
function NoAnnotatedDatasets({ onlyOwnData }: { onlyOwnData: boolean }) {
  const { t } = useTranslation('metadata');
  return (
    <Alert color="blue" icon={<IconInfoCircle aria-hidden />} title={t('datasets.emptyTitle')}>
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{t('datasets.empty')}</Text>
        {onlyOwnData && <Text size="sm">{t('datasets.emptyOwnData')}</Text>}
        <Anchor component={Link} size="sm" to="/imagesets">
          {t('datasets.toImagesets')}
        </Anchor>
      </Stack>
    </Alert>
  );
}

function AnnotatedDatasetsTree() {
  const { t } = useTranslation('metadata');
  const [onlyOwnData] = useOwnDataOnly();
  const datasets = useAnnotatedDatasets(onlyOwnData);
  if (datasets.isPending) return <Spinner />;
  if (datasets.isError) {
    return (
      <Alert color="red" title={t('datasets.loadFailedTitle')}>
        {datasets.error.message}
      </Alert>
    );
  }
  if (datasets.data.length === 0) return <NoAnnotatedDatasets onlyOwnData={onlyOwnData} />;
  return (
    // Keyed by the switch: another selection of data starts with every folder closed.
    <Tree key={String(onlyOwnData)} label={t('datasets.treeLabel')}>
      {datasets.data.map((dataset) => (
        <DatasetFolder key={dataset.datasetUri} dataset={dataset} onlyOwnData={onlyOwnData} />
      ))}
    </Tree>
  );
}

/**
 * /pim/annotateddatasets: the datasets (manifests) with annotated images, each opening to its
 * images and each image to the field sets it is annotated with; a field set opens the annotator there.
 */
export function AnnotatedDatasetsPage() {
  const { t } = useTranslation('metadata');
  return (
    <Stack gap="md">
      <Title order={2}>{t('datasets.title')}</Title>
      <RequireSignIn>
        <AnnotatedDatasetsTree />
      </RequireSignIn>
    </Stack>
  );
}
