import type { PimFieldSet } from '@pim/contract';
import { useNavigate } from 'react-router';
import { useDeleteFieldSet } from '../../api/fieldsets';
import { DeleteButton, useConfirmedDelete } from '../../components/confirmed-delete';
import { useTranslation } from '../../i18n/use-translation';

/** Deleting a set also deletes every value annotated with it, so the question says so; then back to the list. */
export function DeleteFieldSetButton({ set, disabled }: { set: PimFieldSet; disabled?: boolean }) {
  const { t } = useTranslation('fieldsets');
  const navigate = useNavigate();
  const { ask, dialog } = useConfirmedDelete({
    remove: useDeleteFieldSet(),
    uuidOf: (deleting: PimFieldSet) => deleting.uuid,
    title: t('edit.deleteTitle'),
    question: (deleting) => t('edit.deleteQuestion', { name: deleting.name }),
    onDeleted: () => void navigate('/pimfieldsets'),
  });
  return (
    <>
      <DeleteButton disabled={disabled} onClick={() => ask(set)}>
        {t('edit.delete')}
      </DeleteButton>
      {dialog}
    </>
  );
}
