import { Avatar, Badge, Card, Group, Stack, Text, Title } from '@mantine/core';
import { IconMail } from '@tabler/icons-react';
import { menuForRoles } from '@trainlab/contract';
import type { ReactNode } from 'react';
import { useLocation } from 'react-router';
import { displayName, useSession } from '../../api/session';
import { useRouteTitle } from '../../app/route-title';
import { PageHeader } from '../../ui/PageHeader';
import { QuickLinks } from '../../ui/QuickLinks';
import { roleLabel } from './role-labels';

/**
 * The home of each role: who is signed in, and a card for every entry of the role's menu. A role's
 * own dashboard (e.g. the trainer's) goes in `children`, between the two.
 */
export function RoleHomePage({ children }: { children?: ReactNode } = {}) {
  const session = useSession();
  const { pathname } = useLocation();
  const title = useRouteTitle();
  if (!session) return null;
  const name = displayName(session);
  const links = menuForRoles(session.roles).filter((item) => item.path !== pathname);
  const initials = `${session.first_name.charAt(0)}${session.last_name.charAt(0)}`.toUpperCase() || '?';

  return (
    <Stack gap="xl">
      <PageHeader title={title} />
      <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="welcome-title">
        <Group wrap="nowrap" align="flex-start">
          <Avatar color="indigo" radius="xl" size="lg" aria-hidden>
            {initials}
          </Avatar>
          <Stack gap={6}>
            <Title id="welcome-title" order={2} size="h3">
              Welcome, {name}
            </Title>
            <Group gap="xs">
              {session.roles.map((role) => (
                <Badge key={role} variant="light">
                  {roleLabel(role)}
                </Badge>
              ))}
            </Group>
            <Group gap={6} c="dimmed">
              <IconMail size={16} aria-hidden />
              <Text size="sm">{session.email}</Text>
            </Group>
          </Stack>
        </Group>
      </Card>

      {children}

      {links.length ? <QuickLinks links={links.map((item) => ({ label: item.label, to: item.path }))} /> : null}
    </Stack>
  );
}
