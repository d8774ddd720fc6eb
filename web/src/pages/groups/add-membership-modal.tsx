import { Button, Group, Modal, Select, Stack } from '@mantine/core';
import { namedRefSchema, type NamedRef } from '@pim/contract';
import { useState } from 'react';
import { useGroupHierarchyChange, useGroupPossibleRoles } from '../../api/groups';
import { Typeahead } from '../../components/typeahead/typeahead';
import { useTranslation } from '../../i18n/use-translation';

/** Gives a user a role in `group`; the roles offered are the ones that group allows. */
export function AddMembershipModal({ group, onClose }: { group: NamedRef; onClose: () => void }) {
  const { t } = useTranslation('groups');
  const roles = useGroupPossibleRoles(group.uuid);
  const change = useGroupHierarchyChange(group.uuid);
  const [user, setUser] = useState<NamedRef | null>(null);
  const [role, setRole] = useState<string | null>(null);

  const submit = () => {
    if (!user || !role) return;
    change.mutate({ action: 'addmembership', body: { userId: user.uuid, role } }, { onSuccess: onClose });
  };

  return (
    <Modal opened onClose={onClose} title={t('membership.title')}>
      <Stack gap="md">
        <Typeahead
          label={t('membership.user')}
          url="pim/users/autocomplete"
          itemSchema={namedRefSchema}
          getKey={(item) => item.uuid}
          getLabel={(item) => item.name}
          value={user}
          onChange={setUser}
        />
        <Select label={t('membership.role')} data={roles.data ?? []} value={role} onChange={setRole} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('membership.cancel')}
          </Button>
          <Button onClick={submit} disabled={!user || !role} loading={change.isPending}>
            {t('membership.add')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
