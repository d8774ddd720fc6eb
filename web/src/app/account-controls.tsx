import { Button, Checkbox, Flex } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { useOwnDataOnly } from '../session/own-data';
import { useSession } from '../session/session';
import { AboutDialog } from './about-dialog';
import { LanguageSwitch } from './language-switch';

/** 'Own data only', language, About and Logout: in the top bar on wide screens, in the side menu on narrow ones. */
export function AccountControls({ direction }: { direction: 'row' | 'column' }) {
  const { t } = useTranslation();
  const session = useSession();
  const [onlyOwnData, setOnlyOwnData] = useOwnDataOnly();
  const [aboutOpened, about] = useDisclosure(false);
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
      <AboutDialog opened={aboutOpened} onClose={about.close} />
    </Flex>
  );
}
