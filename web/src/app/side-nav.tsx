import { Divider, NavLink, ScrollArea, Stack } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from '../i18n/use-translation';
import { useSession } from '../session/session';
import { AccountControls } from './account-controls';
import { navMenusFor } from './nav-menus';

/** The menus of the top bar as a side menu, for screens too narrow for the full bar. */
export function SideNav({ onNavigate }: { onNavigate: () => void }) {
  const { t } = useTranslation();
  const session = useSession();
  return (
    <ScrollArea>
      <Stack gap="sm">
        <nav aria-label={t('nav.mainNavigation')}>
          {navMenusFor(session.roles).map((menu) =>
            menu.to ? (
              <NavLink key={menu.labelKey} component={Link} to={menu.to} label={t(menu.labelKey)} onClick={onNavigate} />
            ) : (
              <NavLink key={menu.labelKey} component="button" label={t(menu.labelKey)}>
                {menu.items?.map((item) => (
                  <NavLink key={item.to} component={Link} to={item.to} label={t(item.labelKey)} onClick={onNavigate} />
                ))}
              </NavLink>
            ),
          )}
        </nav>
        <Divider />
        <AccountControls direction="column" />
      </Stack>
    </ScrollArea>
  );
}
