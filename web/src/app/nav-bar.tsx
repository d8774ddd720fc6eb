import { Anchor, Box, Burger, Group, Image, Loader, Text } from '@mantine/core';
import { useLayoutEffect, useRef } from 'react';
import { Link } from 'react-router';
import { UserAvatar } from '../components/user-avatar';
import { useTranslation } from '../i18n/use-translation';
import { useLoginUrl } from '../session/login-url';
import { useSession } from '../session/session';
import { AccountControls } from './account-controls';
import { useScreenPending } from './app-router';
import { LanguageSwitch } from './language-switch';
import { NavMenuBar } from './nav-menu-bar';
import { navMenusFor } from './nav-menus';

const NO_SHRINK = { flexShrink: 0 } as const;

function Brand() {
  const { t } = useTranslation();
  return (
    <Anchor component={Link} to="/" underline="never" c="inherit" aria-label={t('nav.home')} style={NO_SHRINK}>
      <Group gap="xs" wrap="nowrap">
        <Image src={`${import.meta.env.BASE_URL}icons/pim-logo.svg`} alt="" w={32} h={32} />
        <Text fw={700} size="xl">
          {t('brand')}
        </Text>
      </Group>
    </Anchor>
  );
}

/** A screen opened for the first time waits for its code; the screen before it stays meanwhile. */
function ScreenLoading() {
  const { t } = useTranslation();
  if (!useScreenPending()) return null;
  return <Loader size="xs" aria-label={t('nav.openingScreen')} style={NO_SHRINK} />;
}

function SignedOutControls() {
  const { t } = useTranslation();
  const loginUrl = useLoginUrl();
  return (
    <Group gap="sm" wrap="nowrap" style={NO_SHRINK}>
      <LanguageSwitch />
      <Anchor href={loginUrl} fw={500}>
        {t('nav.login')}
      </Anchor>
    </Group>
  );
}

/** Whether the menus live behind the burger; 'by-width' leaves it to the breakpoint's media query (a page drawn on the server). */
export type NavCompact = boolean | 'by-width';

/** Mantine's 'lg' breakpoint (75em in its default theme): below it the full menu bar does not fit in any language. */
export const WIDE_BREAKPOINT = 'lg';
export const WIDE_SCREEN_QUERY = '(min-width: 75em)';

/** Shown from the breakpoint only, without a box of its own in the layout. */
const WIDE_ONLY = { visibleFrom: WIDE_BREAKPOINT, style: { display: 'contents' } } as const;

interface NavBarProps {
  /** Narrow screens: the menus and account controls live in the side menu behind the burger. */
  compact: NavCompact;
  sideNavOpened: boolean;
  onToggleSideNav: () => void;
  /** The menus do not fit beside the account controls: the window would need to be this wide. */
  onOverflow?: (neededWidth: number) => void;
}

/** Tells `onOverflow` when the element's content is wider than the element, now or after a resize. */
function useOverflow(onOverflow: ((neededWidth: number) => void) | undefined, watching: boolean) {
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element || !watching || !onOverflow) return;
    const check = () => {
      const over = element.scrollWidth - element.clientWidth;
      if (over > 1) onOverflow(window.innerWidth + over);
    };
    check();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(check);
    observer.observe(element);
    for (const child of element.children) observer.observe(child);
    return () => observer.disconnect();
  });
  return ref;
}

export function NavBar({ compact, sideNavOpened, onToggleSideNav, onOverflow }: NavBarProps) {
  const { t } = useTranslation();
  const session = useSession();
  const signedIn = session.status === 'signedIn';
  const menusRef = useOverflow(onOverflow, compact === false && signedIn);
  const byWidth = compact === 'by-width';
  const menus = signedIn && <NavMenuBar menus={navMenusFor(session.roles)} />;
  const controls = <AccountControls direction="row" />;
  return (
    <Group h="100%" px="md" justify="space-between" wrap="nowrap" gap="sm">
      <Group ref={menusRef} gap="md" wrap="nowrap" style={{ minWidth: 0, flex: 1, overflowX: 'auto' }}>
        {compact !== false && signedIn && (
          <Burger opened={sideNavOpened} onClick={onToggleSideNav} size="sm" aria-label={t('nav.toggleMenu')} hiddenFrom={byWidth ? WIDE_BREAKPOINT : undefined} />
        )}
        <Brand />
        {compact === false && menus}
        {byWidth && <Box {...WIDE_ONLY}>{menus}</Box>}
        {/* After the menus, so they do not shift when it shows. */}
        <ScreenLoading />
      </Group>
      {signedIn && (
        <Group gap="sm" wrap="nowrap" style={NO_SHRINK}>
          {compact === false && controls}
          {byWidth && <Box {...WIDE_ONLY}>{controls}</Box>}
          <UserAvatar user={session.user} />
        </Group>
      )}
      {session.status === 'signedOut' && <SignedOutControls />}
      {session.status === 'checking' && <Loader size="sm" aria-label={t('nav.checkingSession')} />}
    </Group>
  );
}
