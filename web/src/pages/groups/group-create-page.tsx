import { Stack, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { ROLE, createGroupRequestSchema } from '@pim/contract';
import { useNavigate } from 'react-router';
import { useCreateGroup } from '../../api/groups';
import { BackLink } from '../../components/back-link';
import { useTranslation } from '../../i18n/use-translation';
import { RequireSignIn } from '../../session/require-sign-in';
import { GroupNameForm } from './group-name-form';

function NewGroupForm() {
  const { t } = useTranslation('groups');
  const navigate = useNavigate();
  const create = useCreateGroup();
  const save = (name: string) =>
    create.mutate(
      { name },
      {
        onSuccess: (group) => {
          notifications.show({ color: 'green', message: t('form.saved') });
          void navigate(`/pimgroupedit?uuid=${encodeURIComponent(group.uuid)}`);
        },
      },
    );
  return <GroupNameForm schema={createGroupRequestSchema} savedName={null} saving={create.isPending} onSave={save} />;
}

/** `/pim/pimgroup`: a new group gets its name here; its members and subgroups on Group Edit. */
export function GroupCreatePage() {
  const { t } = useTranslation('groups');
  return (
    <Stack gap="md">
      <Stack gap={4}>
        <BackLink to="/pimgroups">{t('form.back')}</BackLink>
        <Title order={2}>{t('create.title')}</Title>
      </Stack>
      <RequireSignIn role={ROLE.ADMIN} refusedTitle={t('list.forbidden')}>
        <NewGroupForm />
      </RequireSignIn>
    </Stack>
  );
}
