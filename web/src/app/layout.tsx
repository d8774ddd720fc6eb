import { AppShell, Container } from '@mantine/core';
import { useDisclosure, useViewportSize } from '@mantine/hooks';
import { lazy, Suspense, useState, useSyncExternalStore } from 'react';
import { Outlet, useLocation } from 'react-router';
import { Spinner } from '../components/spinner';
import { useTranslation } from '../i18n/use-translation';
import { ErrorBoundary } from './error-boundary';
import { NavBar } from './nav-bar';

/** Only narrow screens open it: its code comes then, not with every first load. */
const SideNav = lazy(() => import('./side-nav').then((m) => ({ default: m.SideNav })));

/** Mantine's 'lg' breakpoint: below it the full menu bar does not fit in any language. */
export const WIDE_SCREEN_QUERY = '(min-width: 75em)';

const subscribeToWidth = (onChange: () => void) => {
  const query = window.matchMedia(WIDE_SCREEN_QUERY);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
};
const isWide = () => window.matchMedia(WIDE_SCREEN_QUERY).matches;
/** A screen the server draws is drawn wide, as most of the app's users see it; a narrow one changes as the app takes it over. */
const wideOnServer = () => true;

/**
 * Whether the menus go behind the burger: below the breakpoint, and wherever the menu bar was seen
 * not to fit in this language (Dutch's labels need about 1,400 pixels).
 */
function useCompactNav() {
  // Read synchronously so wide screens never flash the narrow layout.
  const wide = useSyncExternalStore(subscribeToWidth, isWide, wideOnServer);
  const { i18n } = useTranslation();
  const { width } = useViewportSize();
  const [fit, setFit] = useState({ language: '', neededWidth: 0 });
  const neededWidth = fit.language === i18n.language ? fit.neededWidth : 0;
  const onOverflow = (needed: number) => setFit({ language: i18n.language, neededWidth: Math.max(needed, neededWidth) });
  return { compact: !wide || width < neededWidth, onOverflow };
}

export function Layout() {
  const { compact, onOverflow } = useCompactNav();
  const [sideNavOpened, sideNav] = useDisclosure(false);
  // The full bar back (a wider window, a shorter language): the side menu closes, and stays closed
  // when the burger comes again.
  if (!compact && sideNavOpened) sideNav.close();
  const showSideNav = compact && sideNavOpened;
  const { key: locationKey } = useLocation();
  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{ width: 300, breakpoint: 'lg', collapsed: { desktop: !showSideNav, mobile: !showSideNav } }}
      padding="md"
    >
      <AppShell.Header>
        <NavBar compact={compact} sideNavOpened={sideNavOpened} onToggleSideNav={sideNav.toggle} onOverflow={onOverflow} />
      </AppShell.Header>
      {showSideNav && (
        <AppShell.Navbar p="sm">
          <Suspense fallback={<Spinner />}>
            <SideNav onNavigate={sideNav.close} />
          </Suspense>
        </AppShell.Navbar>
      )}
      <AppShell.Main>
        <Container size="xl">
          {/* A failing screen keeps the nav bar, with its message here; the next navigation tries again. */}
          <ErrorBoundary resetKey={locationKey}>
            {/* The first load's screen waits for its code here; later ones in the router's transition, the screen before staying. */}
            <Suspense fallback={<Spinner />}>
              <Outlet />
            </Suspense>
          </ErrorBoundary>
        </Container>
      </AppShell.Main>
    </AppShell>
  );
}
