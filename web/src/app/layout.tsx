import { AppShell, Container } from '@mantine/core';
import { useDisclosure, useViewportSize } from '@mantine/hooks';
import { lazy, Suspense, useState, useSyncExternalStore } from 'react';
import { Outlet, useLocation } from 'react-router';
import { Spinner } from '../components/spinner';
import { useTranslation } from '../i18n/use-translation';
import { ErrorBoundary } from './error-boundary';
import { NavBar, WIDE_BREAKPOINT, WIDE_SCREEN_QUERY, type NavCompact } from './nav-bar';

/** Only narrow screens open it: its code comes then, not with every first load. */
const SideNav = lazy(() => import('./side-nav').then((m) => ({ default: m.SideNav })));

const subscribeToWidth = (onChange: () => void) => {
  const query = window.matchMedia(WIDE_SCREEN_QUERY);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
};
const isWide = () => window.matchMedia(WIDE_SCREEN_QUERY).matches;
/** The server does not know the window's width: a page it draws leaves the choice to the stylesheet's media query. */
const widthUnknown = () => null;

/**
 * Whether the menus go behind the burger: below the breakpoint, and wherever the menu bar was seen
 * not to fit in this language (Dutch's labels need about 1,400 pixels). 'by-width' where the width
 * is not known (a page drawn on the server, and the app's taking it over): both are drawn, and the
 * breakpoint's media query shows one, so a narrow window shows the burger before the app runs.
 */
function useCompactNav(): { compact: NavCompact; onOverflow: (needed: number) => void } {
  // Read synchronously so wide screens never flash the narrow layout.
  const wide = useSyncExternalStore(subscribeToWidth, isWide, widthUnknown);
  const { i18n } = useTranslation();
  const { width } = useViewportSize();
  const [fit, setFit] = useState({ language: '', neededWidth: 0 });
  const neededWidth = fit.language === i18n.language ? fit.neededWidth : 0;
  const onOverflow = (needed: number) => setFit({ language: i18n.language, neededWidth: Math.max(needed, neededWidth) });
  return { compact: wide === null ? 'by-width' : !wide || width < neededWidth, onOverflow };
}

export function Layout() {
  const { compact, onOverflow } = useCompactNav();
  const [sideNavOpened, sideNav] = useDisclosure(false);
  // The full bar back (a wider window, a shorter language): the side menu closes, and stays closed
  // when the burger comes again.
  if (compact === false && sideNavOpened) sideNav.close();
  const showSideNav = compact === true && sideNavOpened;
  const { key: locationKey } = useLocation();
  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{ width: 300, breakpoint: WIDE_BREAKPOINT, collapsed: { desktop: !showSideNav, mobile: !showSideNav } }}
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
