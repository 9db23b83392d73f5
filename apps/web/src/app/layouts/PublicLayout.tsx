import { Anchor, Box, Burger, Button, Collapse, Container, Divider, Group, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { homeForRoles } from '@trainlab/contract';
import { Link, Outlet, useLocation } from 'react-router';
import { useSession, withNext } from '../../api/session';
import { useLogout } from '../use-logout';
import { Brand } from './Brand';
import { MAIN_ID, SkipLink } from './SkipLink';

const SITE_LINKS = [
  { label: 'Courses', to: '/courses' },
  { label: 'Certifications', to: '/certifications' },
  { label: 'Cart', to: '/cart' },
];

/** Pages a visitor signs in from and should come back to (the landing sends a signed-in visitor home anyway). */
const STAY_AFTER_SIGN_IN = /^\/(cart|courses|course-details|certifications|certification-details|payment)(?:[/?]|$)/;

function AccountActions({ stacked, onDone }: { stacked?: boolean; onDone?: () => void }) {
  const session = useSession();
  const logout = useLogout();
  const location = useLocation();
  const here = `${location.pathname}${location.search}`;
  const next = STAY_AFTER_SIGN_IN.test(here) ? here : null;
  const Wrap = stacked ? Stack : Group;
  if (session) {
    return (
      <Wrap gap="xs">
        <Button component={Link} to={homeForRoles(session.roles)} variant="light" onClick={onDone}>
          Home
        </Button>
        <Button
          variant="default"
          onClick={() => {
            onDone?.();
            void logout();
          }}
        >
          Logout
        </Button>
      </Wrap>
    );
  }
  return (
    <Wrap gap="xs">
      <Button component={Link} to={withNext('/login', next)} variant="default" onClick={onDone}>
        Login
      </Button>
      <Button component={Link} to={withNext('/register', next)} onClick={onDone}>
        Register
      </Button>
    </Wrap>
  );
}

/** The public site frame: brand, catalogue links and the account buttons. */
export function PublicLayout() {
  const [opened, { toggle, close }] = useDisclosure(false);
  return (
    <Box mih="100vh" style={{ display: 'flex', flexDirection: 'column' }}>
      <SkipLink />
      <Box component="header" py="sm" style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}>
        <Container size="lg">
          <Group justify="space-between" wrap="nowrap">
            <Brand />
            <Group gap="lg" visibleFrom="sm" component="nav" aria-label="Site">
              {SITE_LINKS.map((l) => (
                <Anchor key={l.to} component={Link} to={l.to} c="dark" fw={500}>
                  {l.label}
                </Anchor>
              ))}
            </Group>
            <Box visibleFrom="sm">
              <AccountActions />
            </Box>
            <Burger
              opened={opened}
              onClick={toggle}
              hiddenFrom="sm"
              aria-label="Toggle navigation"
              aria-expanded={opened}
              aria-controls="site-menu-mobile"
            />
          </Group>
        </Container>
        {/* the phone menu opens under the header (no overlay dialog: the first page stays light) */}
        <Collapse in={opened} hiddenFrom="sm" id="site-menu-mobile">
          <Container size="lg" py="sm">
            <Stack component="nav" aria-label="Site (mobile)">
              {SITE_LINKS.map((l) => (
                <Anchor key={l.to} component={Link} to={l.to} onClick={close}>
                  {l.label}
                </Anchor>
              ))}
              <Divider />
              <AccountActions stacked onDone={close} />
            </Stack>
          </Container>
        </Collapse>
      </Box>
      <Box component="main" id={MAIN_ID} tabIndex={-1} py="xl" style={{ flex: 1 }}>
        <Container size="lg">
          <Outlet />
        </Container>
      </Box>
      <Box component="footer" py="md" style={{ borderTop: '1px solid var(--mantine-color-gray-3)' }}>
        <Container size="lg">
          <Group justify="space-between" wrap="wrap" gap="xs">
            <Text size="sm" c="dimmed">
              © {new Date().getFullYear()} TrainLab
            </Text>
            <Group gap="md">
              <Anchor component={Link} to="/privacy-policy" size="sm">
                Privacy Policy
              </Anchor>
              <Anchor component={Link} to="/terms-and-conditions" size="sm">
                Terms and Conditions
              </Anchor>
            </Group>
          </Group>
        </Container>
      </Box>
    </Box>
  );
}
