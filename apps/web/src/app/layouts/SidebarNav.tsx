import { NavLink, ScrollArea } from '@mantine/core';
import { menuForRoles } from '@trainlab/contract';
import { Link, useLocation } from 'react-router';

/** The role sidebar: exactly `menuForRoles(roles)`, in order. */
export function SidebarNav({ roles, onNavigate }: { roles: readonly string[]; onNavigate?: () => void }) {
  const { pathname } = useLocation();
  const items = menuForRoles(roles);
  return (
    <ScrollArea component="nav" aria-label="Main menu" style={{ flex: 1 }}>
      <ul style={{ listStyle: 'none', margin: 0, padding: 0 }} data-testid="sidebar">
        {items.map((item) => (
          <li key={item.path}>
            <NavLink
              component={Link}
              to={item.path}
              label={item.label}
              active={pathname === item.path}
              aria-current={pathname === item.path ? 'page' : undefined}
              onClick={onNavigate}
            />
          </li>
        ))}
      </ul>
    </ScrollArea>
  );
}
