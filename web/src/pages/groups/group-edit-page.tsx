import { Stack, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { ROLE, renameGroupRequestSchema } from '@pim/contract';
import { useEffect } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { useGroupHierarchy, useRenameGroup } from '../../api/groups';
import { useTranslation } from '../../i18n/use-translation';
import { RequireSignIn } from '../../session/require-sign-in';
import { Spinner } from '../../components/spinner';
import { BackLink } from '../../components/back-link';
import { GroupNameForm } from './group-name-form';
import { GroupTree } from './group-tree';

function GroupEditor({ uuid }: { uuid: string }) {
  const { t } = useTranslation('groups');
  const navigate = useNavigate();
  const hierarchy = useGroupHierarchy(uuid);
  const rename = useRenameGroup(uuid);
  const loadError = hierarchy.error;

  // The spec's rule: a group that cannot be loaded is reported and the user is sent to the list.
  useEffect(() => {
    if (!loadError) return;
    notifications.show({ id: `group-load-failed-${uuid}`, color: 'red', title: t('edit.loadFailed'), message: loadError.message });
    void navigate('/pimgroups', { replace: true });
  }, [loadError, navigate, t, uuid]);

  if (!hierarchy.isSuccess) return <Spinner />;
  const { name } = hierarchy.data;
  const save = (newName: string) =>
    rename.mutate({ name: newName }, { onSuccess: () => notifications.show({ color: 'green', message: t('form.saved') }) });
  return (
    <Stack gap="lg">
      <GroupNameForm schema={renameGroupRequestSchema} savedName={name} saving={rename.isPending} onSave={save} />
      <Stack gap="xs">
        <Title order={3}>{t('edit.children')}</Title>
        <GroupTree group={{ uuid, name }} />
      </Stack>
    </Stack>
  );
}

/** `/pim/pimgroupedit?uuid=`: the group's name, and its subgroups and members as a tree. */
export function GroupEditPage() {
  const { t } = useTranslation('groups');
  const [searchParams] = useSearchParams();
  const uuid = searchParams.get('uuid');
  if (!uuid) return <Navigate to="/pimgroups" replace />;
  return (
    <Stack gap="md">
      <Stack gap={4}>
        <BackLink to="/pimgroups">{t('form.back')}</BackLink>
        <Title order={2}>{t('edit.title')}</Title>
      </Stack>
      <RequireSignIn role={ROLE.ADMIN} refusedTitle={t('list.forbidden')}>
        {/* Keyed by group: a subgroup's link opens a fresh editor with that group's name. */}
        <GroupEditor key={uuid} uuid={uuid} />
      </RequireSignIn>
    </Stack>
  );
}
