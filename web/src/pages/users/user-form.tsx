import { Anchor, Avatar, Box, Button, Group, List, MultiSelect, Radio, Select, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { updateUserRequestSchema, USER_NAME_MAX, type User } from '@pim/contract';
import { IconDeviceFloppy } from '@tabler/icons-react';
import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { usePossibleUserRoles, useSaveUser, type UserId } from '../../api/users';
import { avatarSource } from '../../components/user-avatar';
import { useTranslation } from '../../i18n/use-translation';

interface UserFormProps {
  /** How the page asked for the user: 'self' or its uuid. */
  id: UserId;
  user: User;
  /** The signed-in user's own record: avatar choice, roles read-only. */
  own: boolean;
  admin: boolean;
}

/** What the form edits; the rest of the user is sent back as it came. */
interface UserDraft {
  name: string;
  roles: string[];
  avatar: string | null;
  primaryGroup: string | null;
}

const ELEPHANT = 'elephant';
const DEFAULT_AVATAR = 'default';

function draftOf(user: User): UserDraft {
  return { name: user.name, roles: user.roles, avatar: user.avatar, primaryGroup: user.primaryGroup?.uuid ?? null };
}

/** The user object the form shows, with the edits: the server takes from it what the caller may change. */
function requestOf(user: User, draft: UserDraft): User {
  return {
    ...user,
    name: draft.name,
    roles: draft.roles,
    avatar: draft.avatar,
    primaryGroup: user.pimGroups.find((group) => group.uuid === draft.primaryGroup) ?? null,
  };
}

function nameError(user: User, draft: UserDraft): string | undefined {
  const check = updateUserRequestSchema.safeParse(requestOf(user, draft));
  return check.error?.issues.find((issue) => issue.path[0] === 'name')?.message;
}

function GroupList({ user, admin }: { user: User; admin: boolean }) {
  const { t } = useTranslation('users');
  const labelId = useId();
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500} id={labelId}>
        {t('edit.groups')}
      </Text>
      {user.pimGroups.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('edit.noGroups')}
        </Text>
      ) : (
        <List size="sm" aria-labelledby={labelId}>
          {user.pimGroups.map((group) => (
            <List.Item key={group.uuid}>
              {admin ? (
                <Anchor component={Link} to={`/pimgroupedit?uuid=${encodeURIComponent(group.uuid)}`} size="sm">
                  {group.name}
                </Anchor>
              ) : (
                group.name
              )}
            </List.Item>
          ))}
        </List>
      )}
    </Stack>
  );
}

function AvatarChoice({ value, onChange }: { value: string | null; onChange: (avatar: string | null) => void }) {
  const { t } = useTranslation('users');
  const option = (choice: string, label: string) => (
    <Radio
      value={choice}
      label={
        <Group gap="xs" wrap="nowrap">
          <Avatar src={avatarSource(choice)} radius="xl" aria-hidden />
          <span>{label}</span>
        </Group>
      }
      styles={{ body: { alignItems: 'center' } }}
    />
  );
  return (
    <Radio.Group
      label={t('edit.avatar')}
      value={value === ELEPHANT ? ELEPHANT : DEFAULT_AVATAR}
      onChange={(choice) => onChange(choice === ELEPHANT ? ELEPHANT : null)}
    >
      <Group gap="xl" mt="xs">
        {option(DEFAULT_AVATAR, t('edit.avatarDefault'))}
        {option(ELEPHANT, t('edit.avatarElephant'))}
      </Group>
    </Radio.Group>
  );
}

/**
 * A user's record. Name, primary group and (on one's own profile) the avatar can be changed; roles
 * only by an admin on someone else's record: nobody grants themselves a role.
 */
export function UserForm({ id, user, own, admin }: UserFormProps) {
  const { t } = useTranslation('users');
  const save = useSaveUser();
  const rolesEditable = admin && !own;
  const possibleRoles = usePossibleUserRoles(rolesEditable);
  const [draft, setDraft] = useState(() => draftOf(user));
  const [submitted, setSubmitted] = useState(false);
  const error = submitted ? nameError(user, draft) : undefined;
  // Roles the user holds stay visible even when the server no longer offers them.
  const roleChoices = [...new Set([...(possibleRoles.data ?? []), ...draft.roles])];

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (nameError(user, draft)) return;
    save.mutate(
      { id, uuid: user.uuid, own, user: requestOf(user, draft) },
      {
        onSuccess: (saved) => {
          notifications.show({ color: 'green', message: t('edit.saved') });
          setDraft(draftOf(saved));
          setSubmitted(false);
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md" maw={640}>
        <TextInput
          label={t('edit.name')}
          withAsterisk
          value={draft.name}
          maxLength={USER_NAME_MAX}
          error={error}
          onChange={(event) => setDraft({ ...draft, name: event.currentTarget.value })}
        />
        <TextInput label={t('edit.email')} value={user.email ?? ''} readOnly variant="filled" />
        <TextInput label={t('edit.persistentId')} value={user.persistentId ?? ''} readOnly variant="filled" />
        <MultiSelect
          label={t('edit.roles')}
          description={own ? t('edit.rolesOwn') : undefined}
          data={roleChoices}
          value={draft.roles}
          readOnly={!rolesEditable}
          searchable={rolesEditable}
          variant={rolesEditable ? 'default' : 'filled'}
          // Mantine's read-only MultiSelect still removes the last pill on Backspace: only an editable one listens.
          onChange={rolesEditable ? (roles) => setDraft({ ...draft, roles }) : undefined}
        />
        <GroupList user={user} admin={admin} />
        <Select
          label={t('edit.primaryGroup')}
          placeholder={user.pimGroups.length === 0 ? t('edit.noGroups') : t('edit.noPrimaryGroup')}
          data={user.pimGroups.map((group) => ({ value: group.uuid, label: group.name }))}
          value={draft.primaryGroup}
          disabled={user.pimGroups.length === 0}
          clearable
          // Mantine hides its clear button from assistive technology unless it is given a name.
          clearButtonProps={{ 'aria-label': t('edit.clearPrimaryGroup'), 'aria-hidden': false, tabIndex: 0 }}
          onChange={(primaryGroup) => setDraft({ ...draft, primaryGroup })}
        />
        {own && <AvatarChoice value={draft.avatar} onChange={(avatar) => setDraft({ ...draft, avatar })} />}
        <Box>
          <Button type="submit" leftSection={<IconDeviceFloppy size={16} aria-hidden />} loading={save.isPending}>
            {t('edit.save')}
          </Button>
        </Box>
      </Stack>
    </form>
  );
}
