import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { createImageSetRequestSchema } from '@pim/contract';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { useCreateImageSet } from '../../api/imagesets';
import { useTranslation } from '../../i18n/use-translation';

export function NewImageSetModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation('imagesets');
  const navigate = useNavigate();
  const create = useCreateImageSet();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);

  const close = () => {
    setName('');
    setError(null);
    onClose();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // The contract's rule, the same one the server applies, with the same message.
    const parsed = createImageSetRequestSchema.safeParse({ imageset: name });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? t('new.invalid'));
      return;
    }
    create.mutate(parsed.data, {
      onSuccess: ({ uuid }) => void navigate(`/imageset?uuid=${encodeURIComponent(uuid)}`),
    });
  };

  return (
    <Modal opened={opened} onClose={close} title={t('new.title')} centered>
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <TextInput
            label={t('new.name')}
            value={name}
            error={error}
            data-autofocus
            onChange={(event) => {
              setName(event.currentTarget.value);
              setError(null);
            }}
          />
          <Group justify="flex-end">
            <Button type="submit" loading={create.isPending}>
              {t('new.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
