import { Menu } from '@mantine/core';
import type { ReactElement } from 'react';
import { Link } from 'react-router';
import { useHandover, type Handover } from '../components/deferred-floating';
import { useTranslation } from '../i18n/use-translation';
import type { NavMenu } from './nav-menus';

/** A nav bar menu with items, loaded at its first opening (see DeferredFloating). */
export function NavMenuDropdown({ menu, target, handover }: { menu: NavMenu; target: ReactElement; handover: Handover }) {
  const { t } = useTranslation();
  const targetRef = useHandover(handover, { click: true });
  return (
    <Menu position="bottom-start" shadow="md" withinPortal>
      <Menu.Target ref={targetRef}>{target}</Menu.Target>
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
