import { Alert, Stack, Title } from '@mantine/core';
import type { DocumentImage } from '@pim/contract';
import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { useDocumentImagePage } from '../../api/documentimages';
import { useImageSet } from '../../api/imagesets';
import { BackLink } from '../../components/back-link';
import { columnIdOf } from '../../components/data-table/column-meta';
import { DataTable } from '../../components/data-table/data-table';
import { useTableUrlState } from '../../components/data-table/use-table-url-state';
import { useTranslation } from '../../i18n/use-translation';
import { RequireSignIn } from '../../session/require-sign-in';
import { DOCUMENT_IMAGE_HIDDEN_COLUMNS, documentImageColumns, serverQuery } from './document-image-columns';

const rowId = (image: DocumentImage) => image.uuid;

function DocumentImagesTable({ setUuid }: { setUuid: string }) {
  const { t } = useTranslation('imagesets');
  const columns = useMemo(() => documentImageColumns(t), [t]);
  const columnIds = useMemo(() => columns.map(columnIdOf), [columns]);
  // The same address state the table keeps; the server pages, sorts and filters from it.
  const [state] = useTableUrlState('state', DOCUMENT_IMAGE_HIDDEN_COLUMNS, columnIds);
  const query = serverQuery(state.pageIndex, state.pageSize, state.sorting, state.columnFilters);
  const page = useDocumentImagePage(setUuid, query);
  return (
    <DataTable
      label={t('images.title')}
      columns={columns}
      data={page.data?.results}
      loading={page.isPending}
      getRowId={rowId}
      defaultHiddenColumns={DOCUMENT_IMAGE_HIDDEN_COLUMNS}
      serverSide={{ rowCount: page.data?.total ?? 0 }}
    />
  );
}

/** Back to the set whose images these are, by its name. */
function SetBackLink({ setUuid }: { setUuid: string }) {
  const { t } = useTranslation('imagesets');
  const set = useImageSet(setUuid);
  return <BackLink to={`/imageset?uuid=${encodeURIComponent(setUuid)}`}>{t('images.backToSet', { name: set.data?.imageset ?? '…' })}</BackLink>;
}

export function DocumentImagesPage() {
  const { t } = useTranslation('imagesets');
  const [searchParams] = useSearchParams();
  const setUuid = searchParams.get('documentimagesetuuid');
  return (
    <Stack gap="md">
      <Title order={2}>{t('images.title')}</Title>
      {setUuid ? (
        <RequireSignIn>
          <Stack gap="sm">
            <SetBackLink setUuid={setUuid} />
            <DocumentImagesTable setUuid={setUuid} />
          </Stack>
        </RequireSignIn>
      ) : (
        <Alert color="red">{t('images.missingSet')}</Alert>
      )}
    </Stack>
  );
}
