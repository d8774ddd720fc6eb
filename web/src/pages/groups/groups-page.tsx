import { Button, Stack, Title } from '@mantine/core';
import type { Group } from '@pim/contract';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { useDeleteGroup, useGroups } from '../../api/groups';
import { RequireSignIn } from '../../app/require-sign-in';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { DataTable } from '../../components/data-table/data-table';
import { LoadFailed } from '../users/load-failed';
import { groupColumns } from './group-columns';

const rowId = (group: Group) => group.uuid;

function GroupsTable() {
  const { t } = useTranslation('groups');
  const navigate = useNavigate();
  const groups = useGroups();
  const remove = useDeleteGroup();
  // The group asked about stays set while the dialog closes, so its question does not go blank.
  const [deleting, setDeleting] = useState<Group | null>(null);
  const [asking, setAsking] = useState(false);
  const columns = useMemo(() => groupColumns(t), [t]);
  const renderActions = useCallback(
    (group: Group) => (
      <Button
        size="xs"
        variant="light"
        color="red"
        leftSection={<IconTrash size={14} aria-hidden />}
        aria-label={t('list.deleteLabel', { name: group.name })}
        onClick={() => {
          setDeleting(group);
          setAsking(true);
        }}
      >
        {t('list.delete')}
      </Button>
    ),
    [t],
  );
  if (groups.isError) return <LoadFailed error={groups.error} forbidden={t('list.forbidden')} failed={t('list.loadFailed')} />;
  return (
    <>
      <DataTable
        label={t('list.title')}
        columns={columns}
        data={groups.data}
        loading={groups.isPending}
        getRowId={rowId}
        renderActions={renderActions}
        onRowClick={(group) => void navigate(`/pimgroupedit?uuid=${encodeURIComponent(group.uuid)}`)}
        toolbar={
          <Button component={Link} to="/pimgroup" leftSection={<IconPlus size={16} aria-hidden />}>
            {t('list.new')}
          </Button>
        }
      />
      <ConfirmDialog
        opened={asking}
        title={t('list.deleteTitle')}
        message={t('list.deleteQuestion', { name: deleting?.name ?? '' })}
        busy={remove.isPending}
        onCancel={() => setAsking(false)}
        onConfirm={() => deleting && remove.mutate(deleting.uuid, { onSettled: () => setAsking(false) })}
      />
    </>
  );
}

/** `/pim/pimgroups`: the user groups; a row opens the group, New group creates one. */
export function GroupsPage() {
  const { t } = useTranslation('groups');
  return (
    <Stack gap="md">
      <Title order={2}>{t('list.title')}</Title>
      <RequireSignIn>
        <GroupsTable />
      </RequireSignIn>
    </Stack>
  );
}
