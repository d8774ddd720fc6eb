import { ActionIcon, Anchor, Badge, Box, Button, Group, Loader, Text, Tooltip } from '@mantine/core';
import { namedRefSchema, type HierarchyMembership, type NamedRef } from '@pim/contract';
import { IconPlus, IconTrash, IconUser, IconUserPlus, IconUsersGroup } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { subgroupCandidatesUrl, useGroupHierarchy, useGroupHierarchyChange } from '../../api/groups';
import { Tree, TreeFolder, TreeLeaf } from '../../components/tree/tree';
import { Typeahead } from '../../components/typeahead/typeahead';
import { useTranslation } from '../../i18n/use-translation';
import { AddMembershipModal } from './add-membership-modal';

function RemoveButton({ label, loading, onClick }: { label: string; loading: boolean; onClick: () => void }) {
  return (
    <Tooltip label={label}>
      <ActionIcon size="sm" variant="subtle" color="red" aria-label={label} loading={loading} onClick={onClick}>
        <IconTrash size={14} />
      </ActionIcon>
    </Tooltip>
  );
}

/** Takes the subgroup out of its parent; the subgroup itself stays. */
function RemoveSubgroupButton({ subgroup, parent }: { subgroup: NamedRef; parent: NamedRef }) {
  const { t } = useTranslation('groups');
  const change = useGroupHierarchyChange(parent.uuid);
  return (
    <RemoveButton
      label={t('edit.removeSubgroup', { name: subgroup.name })}
      loading={change.isPending}
      onClick={() => change.mutate({ action: 'removeSubgroup', body: { uuid: subgroup.uuid } })}
    />
  );
}

function MembershipLeaf({ group, membership }: { group: NamedRef; membership: HierarchyMembership }) {
  const { t } = useTranslation('groups');
  const change = useGroupHierarchyChange(group.uuid);
  const { user, role } = membership;
  return (
    <TreeLeaf
      icon={<IconUser size={16} aria-hidden />}
      label={
        <Group gap={6} wrap="nowrap">
          <Text size="sm" c={user.disabled ? 'dimmed' : undefined} td={user.disabled ? 'line-through' : undefined} truncate>
            {user.name}
          </Text>
          {user.email && (
            <Text size="xs" c="dimmed" truncate>
              {user.email}
            </Text>
          )}
          <Badge size="sm" variant="light">
            {role}
          </Badge>
          {user.disabled && (
            <Badge size="sm" variant="outline" color="gray">
              {t('edit.disabledUser')}
            </Badge>
          )}
        </Group>
      }
      actions={
        <RemoveButton
          label={t('edit.removeMembership', { user: user.name, role })}
          loading={change.isPending}
          onClick={() => change.mutate({ action: 'removemembership', body: { membershipId: membership.id } })}
        />
      }
    />
  );
}

/** Picks a group the server allows as a subgroup of `group` (no cycles) and adds it. */
function SubgroupPicker({ group }: { group: NamedRef }) {
  const { t } = useTranslation('groups');
  const change = useGroupHierarchyChange(group.uuid);
  const [picked, setPicked] = useState<NamedRef | null>(null);
  // A new picker after each add: it starts empty and asks for the candidates again.
  const [round, setRound] = useState(0);
  const add = () => {
    if (!picked) return;
    change.mutate(
      { action: 'addSubgroup', body: { uuid: picked.uuid } },
      {
        onSuccess: () => {
          setPicked(null);
          setRound((count) => count + 1);
        },
      },
    );
  };
  return (
    <Group align="flex-end" gap="xs" py={4} wrap="nowrap">
      <Box style={{ flex: 1, maxWidth: 360 }}>
        <Typeahead
          key={round}
          label={t('edit.subgroupPicker', { name: group.name })}
          url={subgroupCandidatesUrl(group.uuid)}
          itemSchema={namedRefSchema}
          getKey={(item) => item.uuid}
          getLabel={(item) => item.name}
          value={picked}
          onChange={setPicked}
        />
      </Box>
      <Button
        variant="light"
        leftSection={<IconPlus size={16} aria-hidden />}
        aria-label={t('edit.addSubgroupTo', { name: group.name })}
        disabled={!picked}
        loading={change.isPending}
        onClick={add}
      >
        {t('edit.addSubgroup')}
      </Button>
    </Group>
  );
}

/** The children of an open group node: asked for once, when the node first opens. */
function GroupChildren({ group }: { group: NamedRef }) {
  const { t } = useTranslation('groups');
  const hierarchy = useGroupHierarchy(group.uuid);
  if (hierarchy.isPending) {
    return (
      <li>
        <Loader size="xs" aria-label={t('edit.loading', { name: group.name })} />
      </li>
    );
  }
  if (hierarchy.isError) {
    return (
      <li>
        <Text c="red" size="sm">
          {t('edit.nodeLoadFailed', { message: hierarchy.error.message })}
        </Text>
      </li>
    );
  }
  const { subgroups, memberships } = hierarchy.data;
  return (
    <>
      <li>
        <SubgroupPicker group={group} />
      </li>
      {subgroups.map((subgroup) => (
        <GroupNode key={subgroup.id} group={{ uuid: subgroup.id, name: subgroup.name }} parent={group} />
      ))}
      {memberships.map((membership) => (
        <MembershipLeaf key={membership.id} group={group} membership={membership} />
      ))}
      {subgroups.length === 0 && memberships.length === 0 && (
        <li>
          <Text c="dimmed" size="sm">
            {t('edit.empty')}
          </Text>
        </li>
      )}
    </>
  );
}

/** A group: the root (open from the start) or a subgroup of `parent`, which can be removed from it. */
function GroupNode({ group, parent }: { group: NamedRef; parent?: NamedRef }) {
  const { t } = useTranslation('groups');
  const [addingMembership, setAddingMembership] = useState(false);
  return (
    <>
      <TreeFolder
        defaultOpen={!parent}
        icon={<IconUsersGroup size={16} aria-hidden />}
        toggleLabel={(open) => t(open ? 'edit.close' : 'edit.open', { name: group.name })}
        label={
          parent ? (
            <Anchor component={Link} size="sm" to={`/pimgroupedit?uuid=${encodeURIComponent(group.uuid)}`}>
              {group.name}
            </Anchor>
          ) : (
            <Text size="sm" fw={700}>
              {group.name}
            </Text>
          )
        }
        actions={
          <>
            <Button
              size="compact-xs"
              variant="light"
              leftSection={<IconUserPlus size={14} aria-hidden />}
              aria-label={t('edit.addMembershipTo', { name: group.name })}
              onClick={() => setAddingMembership(true)}
            >
              {t('edit.addMembership')}
            </Button>
            {parent && <RemoveSubgroupButton subgroup={group} parent={parent} />}
          </>
        }
      >
        {() => <GroupChildren group={group} />}
      </TreeFolder>
      {addingMembership && <AddMembershipModal group={group} onClose={() => setAddingMembership(false)} />}
    </>
  );
}

/** The 'Children' tree: the group as the root, its subgroups as nodes, its memberships as leaves. */
export function GroupTree({ group }: { group: NamedRef }) {
  const { t } = useTranslation('groups');
  return (
    <Tree label={t('edit.children')}>
      <GroupNode group={group} />
    </Tree>
  );
}
