import { Center, Loader } from '@mantine/core';
import { useTranslation } from '../i18n/use-translation';

/** The app's one busy indicator (spec: spinner size 150). */
export function Spinner() {
  const { t } = useTranslation();
  return (
    <Center py="xl">
      <Loader size={150} aria-label={t('loading')} />
    </Center>
  );
}
