import { Button, Group, Stack, Title } from '@mantine/core';
import { modelDownloadName, ROLE, type Model, type ModelKind } from '@pim/contract';
import { IconDownload } from '@tabler/icons-react';
import { useCallback, useMemo } from 'react';
import { useNavigate } from 'react-router';
import { useDownload } from '../../api/download';
import { modelBinaryPath, useDeleteModel, useModelPage, useModels } from '../../api/models';
import { DeleteButton, useConfirmedDelete } from '../../components/confirmed-delete';
import { columnIdOf } from '../../components/data-table/column-meta';
import { DataTable } from '../../components/data-table/data-table';
import { useTableUrlState } from '../../components/data-table/use-table-url-state';
import { NewRecordButton, useRoleRefusal } from '../../components/guarded';
import { useTranslation } from '../../i18n/use-translation';
import { useOwnDataOnly } from '../../session/own-data';
import { RequireSignIn } from '../../session/require-sign-in';
import { LoadFailed } from '../users/load-failed';
import { HIDDEN_MODEL_COLUMNS, modelColumns } from './model-columns';
import { detailPath, MODEL_SCREENS } from './model-screens';

const rowId = (model: Model) => model.uuid;

/**
 * The rows of the list, narrowed to the caller's own under 'Own data only': the whole list, or for
 * Laypa the page the table's address state asks for.
 */
function useModelRows(kind: ModelKind, columnIds: string[]) {
  const paged = MODEL_SCREENS[kind].paged;
  const [state] = useTableUrlState('state', HIDDEN_MODEL_COLUMNS, columnIds);
  const [onlyOwnData] = useOwnDataOnly();
  const all = useModels(kind, onlyOwnData, !paged);
  const page = useModelPage(kind, onlyOwnData, state.pageIndex, state.pageSize, paged);
  if (paged) return { query: page, rows: page.data?.results, rowCount: page.data?.total ?? 0 };
  return { query: all, rows: all.data, rowCount: undefined };
}

function ModelsTable({ kind }: { kind: ModelKind }) {
  const { t, i18n } = useTranslation('models');
  const navigate = useNavigate();
  const screens = MODEL_SCREENS[kind];
  const columns = useMemo(() => modelColumns(kind, t, i18n.language, screens.paged), [kind, t, i18n.language, screens.paged]);
  const columnIds = useMemo(() => [...columns.map(columnIdOf), 'actions'], [columns]);
  const { query, rows, rowCount } = useModelRows(kind, columnIds);
  const { download, busy } = useDownload();
  // Only admins create, delete and publish models; the others see the list and download.
  const adminRefusal = useRoleRefusal(ROLE.ADMIN);
  const { ask, dialog } = useConfirmedDelete({
    remove: useDeleteModel(kind),
    uuidOf: rowId,
    title: t('delete.title'),
    question: (model: Model) => t('delete.message', { label: model.label }),
  });

  const renderActions = useCallback(
    (model: Model) => (
      <Group gap="xs" wrap="nowrap">
        {adminRefusal === null && (
          <DeleteButton size="xs" onClick={() => ask(model)}>
            {t('actions.delete')}
          </DeleteButton>
        )}
        <Button
          size="xs"
          variant="light"
          leftSection={<IconDownload size={14} aria-hidden />}
          loading={busy === modelBinaryPath(kind, model.uuid)}
          onClick={() => void download({ path: modelBinaryPath(kind, model.uuid), fileName: modelDownloadName(model) })}
        >
          {t('actions.download')}
        </Button>
      </Group>
    ),
    [t, kind, busy, download, ask, adminRefusal],
  );

  if (query.isError) return <LoadFailed error={query.error} forbidden={t('list.forbidden')} failed={t('list.loadFailed')} />;
  return (
    <>
      <DataTable
        label={t(`kinds.${kind}.list`)}
        columns={columns}
        data={rows}
        loading={query.isPending}
        getRowId={rowId}
        defaultHiddenColumns={HIDDEN_MODEL_COLUMNS}
        renderActions={renderActions}
        onRowClick={screens.hasDetail ? (model) => void navigate(detailPath(kind, model.uuid)) : undefined}
        serverSide={rowCount === undefined ? undefined : { rowCount }}
        toolbar={
          screens.formRoute && <NewRecordButton to={`/${screens.formRoute}`} label={t(`kinds.${kind}.new`)} refusal={adminRefusal} />
        }
      />
      {dialog}
    </>
  );
}

/** `/pim/{kind}models`: one list screen for every kind of model, its columns and actions by kind. */
export function ModelsPage({ kind }: { kind: ModelKind }) {
  const { t } = useTranslation('models');
  return (
    <Stack gap="md">
      <Title order={2}>{t(`kinds.${kind}.list`)}</Title>
      <RequireSignIn>
        <ModelsTable kind={kind} />
      </RequireSignIn>
    </Stack>
  );
}
