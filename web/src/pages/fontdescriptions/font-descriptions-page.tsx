import { Button, Group, Stack, Title } from '@mantine/core';
import { fontDownloadName, ROLE, type FontDescription } from '@pim/contract';
import { IconDownload } from '@tabler/icons-react';
import { useCallback, useMemo } from 'react';
import { useNavigate } from 'react-router';
import { useDownload } from '../../api/download';
import { fontBinaryPath, useDeleteFontDescription, useFontDescriptions } from '../../api/fontdescriptions';
import { DeleteButton, useConfirmedDelete } from '../../components/confirmed-delete';
import { DataTable } from '../../components/data-table/data-table';
import { NewRecordButton, useRoleRefusal } from '../../components/guarded';
import { useTranslation } from '../../i18n/use-translation';
import { RequireSignIn } from '../../session/require-sign-in';
import { LoadFailed } from '../users/load-failed';
import { FONT_HIDDEN_COLUMNS, fontDescriptionColumns } from './font-description-columns';

const rowId = (font: FontDescription) => font.uuid;

function FontDescriptionsTable() {
  const { t } = useTranslation('fonts');
  const navigate = useNavigate();
  const adminRefusal = useRoleRefusal(ROLE.ADMIN);
  const admin = adminRefusal === null;
  const fonts = useFontDescriptions();
  const { download, busy } = useDownload();
  const { ask, dialog } = useConfirmedDelete({
    remove: useDeleteFontDescription(),
    uuidOf: rowId,
    title: t('list.deleteTitle'),
    question: (font: FontDescription) => t('list.deleteQuestion', { name: font.name }),
    deleted: (font) => t('list.deleted', { name: font.name }),
  });
  const columns = useMemo(() => fontDescriptionColumns(t), [t]);
  const renderActions = useCallback(
    (font: FontDescription) => (
      <Group gap="xs" wrap="nowrap">
        <Button
          size="xs"
          variant="light"
          leftSection={<IconDownload size={14} aria-hidden />}
          aria-label={t('list.downloadLabel', { name: font.name })}
          disabled={!font.hasData}
          loading={busy === fontBinaryPath(font.uuid)}
          onClick={() => void download({ path: fontBinaryPath(font.uuid), fileName: fontDownloadName(font.uuid) })}
        >
          {t('list.download')}
        </Button>
        {admin && (
          <DeleteButton size="xs" aria-label={t('list.deleteLabel', { name: font.name })} onClick={() => ask(font)}>
            {t('list.delete')}
          </DeleteButton>
        )}
      </Group>
    ),
    [t, admin, busy, download, ask],
  );
  if (fonts.isError) return <LoadFailed error={fonts.error} forbidden={t('list.loadFailed')} failed={t('list.loadFailed')} />;
  return (
    <>
      <DataTable
        label={t('list.title')}
        columns={columns}
        data={fonts.data}
        loading={fonts.isPending}
        getRowId={rowId}
        defaultHiddenColumns={FONT_HIDDEN_COLUMNS}
        renderActions={renderActions}
        onRowClick={(font) => void navigate(`/fontdescription?uuid=${encodeURIComponent(font.uuid)}`)}
        toolbar={<NewRecordButton to="/fontdescription" label={t('list.new')} refusal={adminRefusal} />}
      />
      {dialog}
    </>
  );
}

/** `/pim/fontdescriptions`: the fonts every signed-in user may download; admins add, change and delete them. */
export function FontDescriptionsPage() {
  const { t } = useTranslation('fonts');
  return (
    <Stack gap="md">
      <Title order={2}>{t('list.title')}</Title>
      <RequireSignIn>
        <FontDescriptionsTable />
      </RequireSignIn>
    </Stack>
  );
}
