import { ActionIcon, AppShell, Burger, Button, Group, Menu, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconKey, IconLogout, IconUserCircle } from '@tabler/icons-react';
import { homeForRoles } from '@trainlab/contract';
import { Link, Outlet } from 'react-router';
import { displayName, useSession } from '../../api/session';
import { useLogout } from '../use-logout';
import { Brand } from './Brand';
import { PublicLayout } from './PublicLayout';
import { SidebarNav } from './SidebarNav';
import { MAIN_ID, SkipLink } from './SkipLink';

/** The signed-in frame: header with the account, role sidebar, burger on small screens. */
export function ShellLayout() {
  const session = useSession();
  const logout = useLogout();
  const [opened, { toggle, close }] = useDisclosure(false);
  // open pages such as /recording are reachable without a session: show them in the public frame
  if (!session) return <PublicLayout />;
  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{ width: 260, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="lg"
    >
      <SkipLink />
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Toggle navigation" />
            <Brand to={homeForRoles(session.roles)} />
          </Group>
          {/* on a phone the account actions fold into one menu, so nothing is cut off */}
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <ActionIcon
                variant="subtle"
                size="lg"
                hiddenFrom="sm"
                aria-label={`Account menu of ${displayName(session)}`}
              >
                <IconUserCircle size={24} aria-hidden />
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Label>{displayName(session)}</Menu.Label>
              <Menu.Item component={Link} to="/change-password" leftSection={<IconKey size={16} aria-hidden />}>
                Change Password
              </Menu.Item>
              <Menu.Item leftSection={<IconLogout size={16} aria-hidden />} onClick={() => void logout()}>
                Logout
              </Menu.Item>
            </Menu.Dropdown>
          </Menu>
          <Group gap="xs" wrap="nowrap" visibleFrom="sm">
            <Text size="sm" fw={500} data-testid="shell-user-name">
              {displayName(session)}
            </Text>
            <Button
              component={Link}
              to="/change-password"
              variant="subtle"
              size="sm"
              leftSection={<IconKey size={16} aria-hidden />}
            >
              Change Password
            </Button>
            <Button
              variant="light"
              size="sm"
              leftSection={<IconLogout size={16} aria-hidden />}
              onClick={() => void logout()}
            >
              Logout
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="sm">
        <SidebarNav roles={session.roles} onNavigate={close} />
      </AppShell.Navbar>
      <AppShell.Main id={MAIN_ID} tabIndex={-1}>
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}
