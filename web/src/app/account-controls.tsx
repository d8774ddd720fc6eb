import { Button, Checkbox, Flex } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { useDeferredDisclosure } from '../components/deferred-disclosure';
import { useTranslation } from '../i18n/use-translation';
import { useOwnDataOnly } from '../session/own-data';
import { useSession } from '../session/session';
import { LanguageSwitch } from './language-switch';

/** Few open it: its code (and the modal's) comes with the first click, not with every first load. */
const AboutDialog = lazy(() => import('./about-dialog').then((m) => ({ default: m.AboutDialog })));

/** 'Own data only', language, About and Logout: in the top bar on wide screens, in the side menu on narrow ones. */
export function AccountControls({ direction }: { direction: 'row' | 'column' }) {
  const { t } = useTranslation();
  const session = useSession();
  const [onlyOwnData, setOnlyOwnData] = useOwnDataOnly();
  const about = useDeferredDisclosure();
  const row = direction === 'row';
  return (
    <Flex direction={direction} gap={row ? 'xs' : 'sm'} align={row ? 'center' : 'flex-start'} wrap="nowrap" style={{ flexShrink: 0 }}>
      <Checkbox
        label={t('nav.ownDataOnly')}
        styles={{ label: { whiteSpace: 'nowrap' } }}
        checked={onlyOwnData}
        onChange={(event) => setOnlyOwnData(event.currentTarget.checked)}
      />
      <LanguageSwitch />
      <Button variant="subtle" color="dark" size="compact-sm" onClick={about.open}>
        {t('nav.about')}
      </Button>
      <Button variant="subtle" color="dark" size="compact-sm" onClick={() => void session.logout()}>
        {t('nav.logout')}
      </Button>
      {about.wanted && (
        <Suspense fallback={null}>
          <AboutDialog opened={about.opened} onClose={about.close} />
        </Suspense>
      )}
    </Flex>
  );
}
