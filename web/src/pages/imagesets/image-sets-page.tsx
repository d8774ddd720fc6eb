import { Anchor, Button, Group, Stack, Title } from '@mantine/core';
import type { DocumentImageSet } from '@pim/contract';
import { IconPlus } from '@tabler/icons-react';
import { lazy, Suspense, useMemo } from 'react';
import { Link, useNavigate } from 'react-router';
import { useImageSets } from '../../api/image-set-list';
import { DataTable } from '../../components/data-table/data-table';
import { useDeferredDisclosure } from '../../components/deferred-disclosure';
import { useTranslation } from '../../i18n/use-translation';
import { useOwnDataOnly } from '../../session/own-data';
import { chooseFieldSetPath } from '../annotator/paths';
import { RequireSignIn } from '../../session/require-sign-in';
import { IMAGE_SET_HIDDEN_COLUMNS, imageSetColumns } from './image-set-columns';
import { PdfLink, stopRowClick } from './set-downloads';

// The dialogs' code (and the modal's) comes with their first opening, not with the list.
const NewImageSetModal = lazy(() => import('./new-image-set-modal').then((m) => ({ default: m.NewImageSetModal })));
const DownloadModal = lazy(() => import('./download-modal').then((m) => ({ default: m.DownloadModal })));

const rowId = (set: DocumentImageSet) => set.uuid;

/** 'Analyze manually' works from the manifest; Download and PDF fetch the set's files with the sign-in. */
function RowActions({ set }: { set: DocumentImageSet }) {
  const { t } = useTranslation('imagesets');
  const downloadModal = useDeferredDisclosure();
  return (
    // Clicks here (and in the modal, whose events bubble through React's tree) are not row clicks.
    <Group gap="sm" wrap="nowrap" onClick={stopRowClick} onKeyDown={stopRowClick}>
      <Anchor component={Link} size="sm" to={chooseFieldSetPath(set.remoteUri)}>
        {t('list.analyzeManually')}
      </Anchor>
      <Anchor component="button" type="button" size="sm" onClick={downloadModal.open}>
        {t('download.open')}
      </Anchor>
      <PdfLink set={set} />
      {downloadModal.wanted && (
        <Suspense fallback={null}>
          <DownloadModal set={set} opened={downloadModal.opened} onClose={downloadModal.close} />
        </Suspense>
      )}
    </Group>
  );
}

const renderActions = (set: DocumentImageSet) => <RowActions set={set} />;

function ImageSetsTable() {
  const { t } = useTranslation('imagesets');
  const navigate = useNavigate();
  const [onlyOwnData] = useOwnDataOnly();
  const imageSets = useImageSets(onlyOwnData);
  const newModal = useDeferredDisclosure();
  const columns = useMemo(() => imageSetColumns(t), [t]);

  return (
    <>
      <DataTable
        label={t('list.title')}
        columns={columns}
        data={imageSets.data}
        loading={imageSets.isPending}
        getRowId={rowId}
        renderActions={renderActions}
        defaultHiddenColumns={IMAGE_SET_HIDDEN_COLUMNS}
        onRowClick={(set) => void navigate(`/imageset?uuid=${encodeURIComponent(set.uuid)}`)}
        toolbar={
          <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={newModal.open}>
            {t('list.new')}
          </Button>
        }
      />
      {newModal.wanted && (
        <Suspense fallback={null}>
          <NewImageSetModal opened={newModal.opened} onClose={newModal.close} />
        </Suspense>
      )}
    </>
  );
}

export function ImageSetsPage() {
  const { t } = useTranslation('imagesets');
  return (
    <Stack gap="md">
      <Title order={2}>{t('list.title')}</Title>
      <RequireSignIn>
        <ImageSetsTable />
      </RequireSignIn>
    </Stack>
  );
}
