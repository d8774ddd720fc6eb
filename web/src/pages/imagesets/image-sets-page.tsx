import { Anchor, Button, Group, Stack, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { DocumentImageSet } from '@pim/contract';
import { IconPlus } from '@tabler/icons-react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { useImageSets } from '../../api/imagesets';
import { DataTable } from '../../components/data-table/data-table';
import { useOwnDataOnly } from '../../session/own-data';
import { chooseFieldSetPath } from '../annotator/paths';
import { RequireSignIn } from '../../session/require-sign-in';
import { IMAGE_SET_HIDDEN_COLUMNS, imageSetColumns } from './image-set-columns';
import { NewImageSetModal } from './new-image-set-modal';
import { DownloadModal, PdfLink, stopRowClick } from './set-downloads';

const rowId = (set: DocumentImageSet) => set.uuid;

/** 'Analyze manually' works from the manifest; Download and PDF fetch the set's files with the sign-in. */
function RowActions({ set }: { set: DocumentImageSet }) {
  const { t } = useTranslation('imagesets');
  const [downloadOpened, downloadModal] = useDisclosure(false);
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
      <DownloadModal set={set} opened={downloadOpened} onClose={downloadModal.close} />
    </Group>
  );
}

const renderActions = (set: DocumentImageSet) => <RowActions set={set} />;

function ImageSetsTable() {
  const { t } = useTranslation('imagesets');
  const navigate = useNavigate();
  const [onlyOwnData] = useOwnDataOnly();
  const imageSets = useImageSets(onlyOwnData);
  const [newOpened, newModal] = useDisclosure(false);
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
      <NewImageSetModal opened={newOpened} onClose={newModal.close} />
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
