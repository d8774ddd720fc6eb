import { Stack, Title } from '@mantine/core';
import type { ConfusionMatrixSummary } from '@pim/contract';
import { useMemo } from 'react';
import { useConfusionMatrices } from '../../api/similarity';
import { DataTable } from '../../components/data-table/data-table';
import { useTranslation } from '../../i18n/use-translation';
import { RequireSignIn } from '../../session/require-sign-in';
import { LoadFailed } from '../users/load-failed';
import { confusionMatrixColumns } from './confusion-matrix-columns';

const rowId = (matrix: ConfusionMatrixSummary) => matrix.uuid;

function ConfusionMatricesTable() {
  const { t, i18n } = useTranslation('similarity');
  const { t: tPages } = useTranslation('pages');
  const matrices = useConfusionMatrices();
  const columns = useMemo(() => confusionMatrixColumns(t, i18n.language), [t, i18n.language]);
  if (matrices.isError) return <LoadFailed error={matrices.error} forbidden={t('confusion.forbidden')} failed={t('confusion.loadFailed')} />;
  return <DataTable label={tPages('screens.siameseconfusionmatrices')} columns={columns} data={matrices.data} loading={matrices.isPending} getRowId={rowId} />;
}

/** `/pim/siameseconfusionmatrices`: the confusion matrices SiameseNetwork jobs made; the uuid opens one. */
export function ConfusionMatricesPage() {
  const { t } = useTranslation('pages');
  return (
    <Stack gap="md">
      <Title order={2}>{t('screens.siameseconfusionmatrices')}</Title>
      <RequireSignIn>
        <ConfusionMatricesTable />
      </RequireSignIn>
    </Stack>
  );
}
