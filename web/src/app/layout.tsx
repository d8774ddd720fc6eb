import { AppShell, Container } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { Spinner } from '../components/spinner';
import { NavBar } from './nav-bar';
import { SideNav } from './side-nav';

/** Mantine's 'lg' breakpoint: below it the full menu bar does not fit (certainly not in Dutch). */
export const WIDE_SCREEN_QUERY = '(min-width: 75em)';

export function Layout() {
  // Read synchronously so wide screens never flash the narrow layout.
  const wide = useMediaQuery(WIDE_SCREEN_QUERY, true, { getInitialValueInEffect: false });
  const [sideNavOpened, sideNav] = useDisclosure(false);
  const showSideNav = !wide && sideNavOpened;
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
          <SideNav onNavigate={sideNav.close} />
        </AppShell.Navbar>
      )}
      <AppShell.Main>
        <Container size="xl">
          {/* Screens load their translation namespace on first use. */}
          <Suspense fallback={<Spinner />}>
            <Outlet />
          </Suspense>
        </Container>
      </AppShell.Main>
    </AppShell>
  );
}
