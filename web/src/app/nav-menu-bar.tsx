import { Button, Group, type ButtonProps } from '@mantine/core';
import { IconChevronDown } from '@tabler/icons-react';
import { lazy, type ComponentProps } from 'react';
import { Link } from 'react-router';
import { DeferredFloating } from '../components/deferred-floating';
import { useTranslation } from '../i18n/use-translation';
import type { NavMenu } from './nav-menus';

const loadDropdown = () => import('./nav-menu-dropdown');
const NavMenuDropdown = lazy(() => loadDropdown().then((m) => ({ default: m.NavMenuDropdown })));

/** A menu's button: the plain one of the first load and the real menu's target look the same. */
function MenuButton(props: ButtonProps & ComponentProps<'button'>) {
  return <Button variant="subtle" color="dark" size="compact-sm" rightSection={<IconChevronDown size={14} aria-hidden />} {...props} />;
}

function DropdownMenu({ menu }: { menu: NavMenu }) {
  const { t } = useTranslation();
  const label = t(menu.labelKey);
  return (
    <DeferredFloating load={loadDropdown} popup="menu" trigger={(props) => <MenuButton {...props}>{label}</MenuButton>}>
      {(handover) => <NavMenuDropdown menu={menu} handover={handover} target={<MenuButton>{label}</MenuButton>} />}
    </DeferredFloating>
  );
}

export function NavMenuBar({ menus }: { menus: NavMenu[] }) {
  const { t } = useTranslation();
  return (
    <Group component="nav" aria-label={t('nav.mainNavigation')} gap={0} wrap="nowrap" style={{ flexShrink: 0 }}>
      {menus.map((menu) =>
        menu.to ? (
          <Button key={menu.labelKey} variant="subtle" color="dark" size="compact-sm" component={Link} to={menu.to}>
            {t(menu.labelKey)}
          </Button>
        ) : (
          <DropdownMenu key={menu.labelKey} menu={menu} />
        ),
      )}
    </Group>
  );
}
