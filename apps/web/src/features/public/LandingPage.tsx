import { Badge, Box, Button, Group, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCertificate, IconDeviceDesktop, IconPresentation } from '@tabler/icons-react';
import { homeForRoles } from '@trainlab/contract';
import { lazy, Suspense } from 'react';
import { Link, Navigate, useLocation } from 'react-router';
import { useSession } from '../../api/session';
import type { LeftState } from '../../app/use-leave-to-home';
import { Loading } from '../../ui/Loading';

// the catalogue carousels load in their own chunk, after the page's first paint
const LandingCatalogue = lazy(() =>
  import('../catalog/LandingCatalogue').then((m) => ({ default: m.LandingCatalogue })),
);

const FEATURES = [
  { icon: IconPresentation, title: 'Live trainings', text: 'Join instructor-led sessions in the browser.' },
  { icon: IconDeviceDesktop, title: 'Cloud labs', text: 'Practise on real virtual machines, no setup needed.' },
  { icon: IconCertificate, title: 'Certifications', text: 'Prepare for AWS, Google and Microsoft exams.' },
];

/** / and /training-home: the landing page. Signed-in visitors go to their role home. */
export function LandingPage() {
  const session = useSession();
  const leaving = (useLocation().state as LeftState | null)?.signedOut === true;
  if (session && !leaving) return <Navigate to={homeForRoles(session.roles)} replace />;
  return (
    <Stack gap={48}>
      <Box
        component="section"
        aria-labelledby="hero-title"
        p={{ base: 'lg', sm: 48 }}
        style={{
          borderRadius: 'var(--mantine-radius-lg)',
          background: 'linear-gradient(135deg, var(--mantine-color-indigo-7), var(--mantine-color-cyan-7))',
          color: 'white',
        }}
      >
        <Stack gap="md" maw={640}>
          <Badge variant="white" size="lg" w="fit-content">
            Learn by doing
          </Badge>
          <Title id="hero-title" order={1} size="h1">
            Trainings, courses and cloud labs in one place
          </Title>
          <Text size="lg">
            TrainLab brings live instructor-led trainings, recorded courses, assessments and browser-based virtual
            machines together for learners, learning providers and organizations.
          </Text>
          <Group gap="sm">
            <Button component={Link} to="/register" size="md" variant="white">
              Get started
            </Button>
            <Button component={Link} to="/courses" size="md" variant="outline" color="white">
              Browse courses
            </Button>
          </Group>
        </Stack>
      </Box>

      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="lg">
        {FEATURES.map((f) => (
          <Group key={f.title} align="flex-start" wrap="nowrap">
            <ThemeIcon size="xl" radius="md" variant="light" aria-hidden>
              <f.icon size={24} />
            </ThemeIcon>
            <div>
              <Text fw={600}>{f.title}</Text>
              <Text size="sm" c="dimmed">
                {f.text}
              </Text>
            </div>
          </Group>
        ))}
      </SimpleGrid>

      {/* the carousels arrive after the first paint: their room is kept, so nothing below them jumps */}
      <Stack gap={48} mih={{ base: 740, sm: 660 }}>
        <Suspense fallback={<Loading />}>
          <LandingCatalogue />
        </Suspense>
      </Stack>
    </Stack>
  );
}
