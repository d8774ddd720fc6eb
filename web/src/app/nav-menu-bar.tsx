import { Button, Group, Menu } from '@mantine/core';
import { IconChevronDown } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { NavMenu } from './nav-menus';

function DropdownMenu({ menu }: { menu: NavMenu }) {
  const { t } = useTranslation();
  return (
    <Menu position="bottom-start" shadow="md" withinPortal>
      <Menu.Target>
        <Button variant="subtle" color="dark" size="compact-sm" rightSection={<IconChevronDown size={14} aria-hidden />}>
          {t(menu.labelKey)}
        </Button>
      </Menu.Target>
      <Menu.Dropdown mah="80vh" style={{ overflowY: 'auto' }}>
        {menu.items?.map((item) => (
          <Menu.Item key={item.to} component={Link} to={item.to}>
            {t(item.labelKey)}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
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
