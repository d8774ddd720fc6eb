import { Code, Group, Stack, Text, Title } from '@mantine/core';
import type { ConfusionMatrix } from '@pim/contract';
import { Navigate, useSearchParams } from 'react-router';
import { useConfusionMatrix } from '../../api/similarity';
import { BackLink } from '../../components/back-link';
import { Spinner } from '../../components/spinner';
import { useTranslation } from '../../i18n/use-translation';
import { RequireSignIn } from '../../session/require-sign-in';
import { formatDateTime } from '../documentimage/comparison/labels';
import { formatPercent } from '../textlines/percent';
import { LoadFailed } from '../users/load-failed';
import { ConfusionMatrixTable } from './confusion-matrix-table';

function Report({ matrix }: { matrix: ConfusionMatrix }) {
  const { t, i18n } = useTranslation('similarity');
  return (
    <Stack gap="md">
      <Group gap="xl" wrap="wrap">
        <Text>{t('confusion.modelIs', { model: matrix.modelLabel })}</Text>
        {matrix.imageSet && <Text>{t('confusion.imageSetIs', { name: matrix.imageSet.name })}</Text>}
        <Text>{t('confusion.createdAt', { date: formatDateTime(matrix.created, i18n.language) })}</Text>
      </Group>
      <Text fw={600} data-testid="accuracy">
        {t('confusion.accuracyIs', { value: formatPercent(matrix.accuracy, i18n.language), count: matrix.snippets })}
      </Text>
      <Title order={3}>{t('confusion.matrix')}</Title>
      <ConfusionMatrixTable matrix={matrix} />
      <Title order={3}>{t('confusion.report')}</Title>
      <Code block aria-label={t('confusion.report')}>
        {matrix.report}
      </Code>
    </Stack>
  );
}

function ConfusionMatrixDetail({ uuid }: { uuid: string }) {
  const { t } = useTranslation('similarity');
  const matrix = useConfusionMatrix(uuid);
  if (matrix.isError) return <LoadFailed error={matrix.error} forbidden={t('confusion.forbidden')} failed={t('confusion.loadFailed')} />;
  if (matrix.isPending) return <Spinner />;
  return <Report matrix={matrix.data} />;
}

/** `/pim/siameseconfusionmatrix?uuid=`: one confusion matrix; without a uuid, the list. */
export function ConfusionMatrixPage() {
  const { t } = useTranslation('pages');
  const { t: ts } = useTranslation('similarity');
  const [params] = useSearchParams();
  const uuid = params.get('uuid');
  if (!uuid) return <Navigate to="/siameseconfusionmatrices" replace />;
  return (
    <Stack gap="md">
      <BackLink to="/siameseconfusionmatrices">{ts('confusion.back')}</BackLink>
      <Title order={2}>{t('screens.siameseconfusionmatrix')}</Title>
      <RequireSignIn>
        <ConfusionMatrixDetail uuid={uuid} />
      </RequireSignIn>
    </Stack>
  );
}
