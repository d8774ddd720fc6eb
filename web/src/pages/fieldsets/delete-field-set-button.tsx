import { Button } from '@mantine/core';
import type { PimFieldSet } from '@pim/contract';
import { IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useDeleteFieldSet } from '../../api/fieldsets';
import { ConfirmDialog } from '../../components/confirm-dialog';

/** Deleting a set also deletes every value annotated with it, so the question says so; then back to the list. */
export function DeleteFieldSetButton({ set, disabled }: { set: PimFieldSet; disabled?: boolean }) {
  const { t } = useTranslation('fieldsets');
  const navigate = useNavigate();
  const remove = useDeleteFieldSet();
  const [asking, setAsking] = useState(false);
  return (
    <>
      <Button color="red" variant="light" leftSection={<IconTrash size={16} aria-hidden />} disabled={disabled} onClick={() => setAsking(true)}>
        {t('edit.delete')}
      </Button>
      <ConfirmDialog
        opened={asking}
        title={t('edit.deleteTitle')}
        message={t('edit.deleteQuestion', { name: set.name })}
        busy={remove.isPending}
        onCancel={() => setAsking(false)}
        onConfirm={() => remove.mutate(set.uuid, { onSuccess: () => void navigate('/pimfieldsets') })}
      />
    </>
  );
}
