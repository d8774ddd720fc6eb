import { AppShell, Container } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { lazy, Suspense } from 'react';
import { Outlet, useLocation } from 'react-router';
import { Spinner } from '../components/spinner';
import { ErrorBoundary } from './error-boundary';
import { NavBar } from './nav-bar';

/** Only narrow screens open it: its code comes then, not with every first load. */
const SideNav = lazy(() => import('./side-nav').then((m) => ({ default: m.SideNav })));

/** Mantine's 'lg' breakpoint: below it the full menu bar does not fit (certainly not in Dutch). */
export const WIDE_SCREEN_QUERY = '(min-width: 75em)';

export function Layout() {
  // Read synchronously so wide screens never flash the narrow layout.
  const wide = useMediaQuery(WIDE_SCREEN_QUERY, true, { getInitialValueInEffect: false });
  const [sideNavOpened, sideNav] = useDisclosure(false);
  const showSideNav = !wide && sideNavOpened;
  const { key: locationKey } = useLocation();
  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{ width: 300, breakpoint: 'lg', collapsed: { desktop: true, mobile: !showSideNav } }}
      padding="md"
    >
      <AppShell.Header>
        <NavBar compact={!wide} sideNavOpened={sideNavOpened} onToggleSideNav={sideNav.toggle} />
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
