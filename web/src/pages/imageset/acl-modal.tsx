import { ActionIcon, Button, Group, Modal, Select, Stack, Table, Text } from '@mantine/core';
import { namedRefSchema, type AclPermission, type NamedRef } from '@pim/contract';
import { IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useAclEntries, useAclPermissions, useAddAclEntry, useDeleteAclEntry } from '../../api/acl';
import { useGroupPossibleRoles } from '../../api/groups';
import { Guarded } from '../../components/guarded';
import { Spinner } from '../../components/spinner';
import { Typeahead } from '../../components/typeahead/typeahead';
import { useTranslation } from '../../i18n/use-translation';

function AclTable({ subject, publicSet, manageRefusal }: { subject: string; publicSet: boolean; manageRefusal: string | null }) {
  const { t } = useTranslation('imagesets');
  const entries = useAclEntries(subject);
  const remove = useDeleteAclEntry(subject);
  if (entries.isPending) return <Spinner />;
  if (entries.isError) return <Text c="red">{t('acl.loadFailed')}</Text>;
  if (entries.data.length === 0) return <Text c="dimmed">{t(publicSet ? 'acl.nonePublic' : 'acl.none')}</Text>;
  return (
    <Table aria-label={t('acl.entries')}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('acl.group')}</Table.Th>
          <Table.Th>{t('acl.role')}</Table.Th>
          <Table.Th>{t('acl.permission')}</Table.Th>
          <Table.Th />
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {entries.data.map((entry) => (
          <Table.Tr key={entry.uuid}>
            <Table.Td>{entry.group.name}</Table.Td>
            <Table.Td>{entry.role}</Table.Td>
            <Table.Td>{entry.permission}</Table.Td>
            <Table.Td>
              <Guarded reason={manageRefusal}>
                <ActionIcon
                  color="red"
                  variant="subtle"
                  aria-label={t('acl.delete', { group: entry.group.name })}
                  loading={remove.isPending && remove.variables === entry.uuid}
                  onClick={() => remove.mutate(entry.uuid)}
                >
                  <IconTrash size={16} />
                </ActionIcon>
              </Guarded>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

interface AclModalProps {
  subject: string;
  /** A public set may be read by everyone signed in, entries or not. */
  publicSet: boolean;
  /** Why the caller may not change the entries (they lack ADMIN on the set), or null when they may. */
  manageRefusal: string | null;
  onClose: () => void;
}

/**
 * Who may do what with the set: each entry grants the members holding a role in a group a
 * permission. The roles offered are those of the chosen group. After Add the form starts empty.
 */
export function AclModal({ subject, publicSet, manageRefusal, onClose }: AclModalProps) {
  const { t } = useTranslation('imagesets');
  const permissions = useAclPermissions();
  const add = useAddAclEntry(subject);
  const [group, setGroup] = useState<NamedRef | null>(null);
  const roles = useGroupPossibleRoles(group?.uuid ?? null);
  const [role, setRole] = useState<string | null>(null);
  const [permission, setPermission] = useState<string | null>(null);

  const chooseGroup = (next: NamedRef | null) => {
    if (next?.uuid !== group?.uuid) setRole(null);
    setGroup(next);
  };

  const submit = () => {
    if (!group || !role || !permission) return;
    add.mutate(
      { group: group.uuid, role, permission: permission as AclPermission },
      {
        onSuccess: () => {
          setGroup(null);
          setRole(null);
          setPermission(null);
        },
      },
    );
  };

  return (
    <Modal opened onClose={onClose} title={t('acl.title')} size="lg">
      <Stack gap="md">
        <AclTable subject={subject} publicSet={publicSet} manageRefusal={manageRefusal} />
        {manageRefusal !== null && (
          <Text size="sm" c="dimmed">
            {manageRefusal}
          </Text>
        )}
        <Group align="flex-end" grow>
          <Typeahead
            label={t('acl.group')}
            url="pim/pimgroups/autocomplete"
            itemSchema={namedRefSchema}
            getKey={(item) => item.uuid}
            getLabel={(item) => item.name}
            value={group}
            onChange={chooseGroup}
            disabled={manageRefusal !== null}
          />
          <Select label={t('acl.role')} data={roles.data ?? []} value={role} onChange={setRole} disabled={!group || manageRefusal !== null} />
          <Select label={t('acl.permission')} data={permissions.data ?? []} value={permission} onChange={setPermission} disabled={manageRefusal !== null} />
        </Group>
        <Group justify="flex-end">
          <Guarded reason={manageRefusal}>
            <Button onClick={submit} disabled={!group || !role || !permission} loading={add.isPending}>
              {t('acl.add')}
            </Button>
          </Guarded>
        </Group>
      </Stack>
    </Modal>
  );
}
