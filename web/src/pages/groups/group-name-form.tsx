import { Button, Group, TextInput } from '@mantine/core';
import { GROUP_NAME_MAX } from '@pim/contract';
import { IconDeviceFloppy } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import type { z } from 'zod';
import { useTranslation } from '../../i18n/use-translation';

interface GroupNameFormProps {
  /** The contract's request schema of the call that saves the name (create or rename). */
  schema: z.ZodType<{ name: string }>;
  /** The stored name of a saved group: Save waits for a change. Null for a new group. */
  savedName: string | null;
  saving: boolean;
  onSave: (name: string) => void;
}

/** The 'Name group' field with its Save button; the name is checked with the contract's schema. */
export function GroupNameForm({ schema, savedName, saving, onSave }: GroupNameFormProps) {
  const { t } = useTranslation('groups');
  const [name, setName] = useState(savedName ?? '');
  const parsed = schema.safeParse({ name });
  const tooLong = parsed.error?.issues.some((issue) => issue.code === 'too_big') ?? false;
  const unchanged = savedName !== null && parsed.data?.name === savedName;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (parsed.success && !unchanged) onSave(parsed.data.name);
  };

  return (
    <form onSubmit={submit} noValidate>
      <Group align="flex-start" gap="sm" maw={640}>
        <TextInput
          label={t('form.name')}
          withAsterisk
          value={name}
          onChange={(event) => setName(event.currentTarget.value)}
          error={tooLong ? t('form.tooLong', { max: GROUP_NAME_MAX }) : undefined}
          style={{ flex: 1 }}
        />
        <Button
          type="submit"
          mt={25}
          leftSection={<IconDeviceFloppy size={16} aria-hidden />}
          disabled={!parsed.success || unchanged}
          loading={saving}
        >
          {t('form.save')}
        </Button>
      </Group>
    </form>
  );
}
