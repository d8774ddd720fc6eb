import { Stack, Title } from '@mantine/core';
import { ROLE, type ModelKind } from '@pim/contract';
import { useSearchParams } from 'react-router';
import { BackLink } from '../../components/back-link';
import { useTranslation } from '../../i18n/use-translation';
import { RequireSignIn } from '../../session/require-sign-in';
import { ModelDetail } from './model-detail';
import { ModelForm } from './model-form';
import { listPath, MODEL_SCREENS } from './model-screens';

/**
 * `/pim/{kind}model`: the create form; for Loghi HTR and Laypa, titled by the kind ('Laypa model'),
 * with `?uuid=` the model's detail page instead.
 */
export function ModelPage({ kind }: { kind: ModelKind }) {
  const { t } = useTranslation('models');
  const [searchParams] = useSearchParams();
  const { hasDetail } = MODEL_SCREENS[kind];
  const uuid = hasDetail ? searchParams.get('uuid') : null;
  return (
    <Stack gap="md">
      <Stack gap={4}>
        {/* The detail page has its own Back button. */}
        {!uuid && <BackLink to={listPath(kind)}>{t(`kinds.${kind}.back`)}</BackLink>}
        <Title order={2}>{hasDetail ? t(`kinds.${kind}.one`) : t(`kinds.${kind}.new`)}</Title>
      </Stack>
      {/* Only admins upload models; everyone signed in may see a model they may read. */}
      <RequireSignIn role={uuid ? undefined : ROLE.ADMIN} refusedTitle={t('form.forbidden')}>
        {uuid ? <ModelDetail kind={kind} uuid={uuid} /> : <ModelForm kind={kind} />}
      </RequireSignIn>
    </Stack>
  );
}
