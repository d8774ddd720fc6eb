import { Button, Stack, Title } from '@mantine/core';
import type { PimFieldSetSummary } from '@pim/contract';
import { IconPlus } from '@tabler/icons-react';
import { useMemo } from 'react';
import { Link, useNavigate } from 'react-router';
import { useFieldSets } from '../../api/fieldsets';
import { DataTable } from '../../components/data-table/data-table';
import { useTranslation } from '../../i18n/use-translation';
import { useOwnDataOnly } from '../../session/own-data';
import { RequireSignIn } from '../../session/require-sign-in';
import { fieldSetColumns } from './field-set-columns';

const rowId = (set: PimFieldSetSummary) => set.uuid;

function FieldSetsTable() {
  const { t } = useTranslation('fieldsets');
  const navigate = useNavigate();
  const [onlyOwnData] = useOwnDataOnly();
  const fieldSets = useFieldSets(onlyOwnData);
  const columns = useMemo(() => fieldSetColumns(t), [t]);
  return (
    <DataTable
      label={t('list.title')}
      columns={columns}
      data={fieldSets.data}
      loading={fieldSets.isPending}
      getRowId={rowId}
      onRowClick={(set) => void navigate(`/pimfieldsetedit?uuid=${encodeURIComponent(set.uuid)}`)}
      toolbar={
        <Button component={Link} to="/pimfieldsetedit" leftSection={<IconPlus size={16} aria-hidden />}>
          {t('list.new')}
        </Button>
      }
    />
  );
}

/** `/pim/pimfieldsets`: the field sets the user may see ('Own data only' narrows them to their own). */
export function FieldSetsPage() {
  const { t } = useTranslation('fieldsets');
  return (
    <Stack gap="md">
      <Title order={2}>{t('list.title')}</Title>
      <RequireSignIn>
        <FieldSetsTable />
      </RequireSignIn>
    </Stack>
  );
}
