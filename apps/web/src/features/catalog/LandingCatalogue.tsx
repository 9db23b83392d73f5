import { Button, Group, Stack, Title } from '@mantine/core';
import { useDeferredValue } from 'react';
import { Link } from 'react-router';
import { errorText } from '../../api/client';
import { useApiQuery } from '../../api/use-api';
import { EmptyState } from '../../ui/EmptyState';
import { ErrorAlert } from '../../ui/ErrorAlert';
import { Loading } from '../../ui/Loading';
import { Carousel } from './Carousel';
import { CertificationCard, CourseCard } from './cards';

/** The landing's trending courses and certifications carousels (spec 01 §2 /training-home). */
export function LandingCatalogue() {
  const home = useApiQuery('get-home-trainings');
  // the answer's two carousels (a dozen cards) are drawn in a background render that yields to the
  // browser every few milliseconds, not in one task that holds a slow phone's first taps; until that
  // render is done the spinner stays
  const data = useDeferredValue(home.data);
  const loading = home.isLoading || (home.data !== undefined && data === undefined);
  const courses = data?.courses ?? [];
  const certifications = data?.certifications ?? [];
  return (
    <>
      <Stack component="section" aria-labelledby="trending-title" gap="md">
        <Group justify="space-between">
          <Title id="trending-title" order={2}>
            Trending Courses
          </Title>
          <Button component={Link} to="/courses" variant="subtle">
            View all courses
          </Button>
        </Group>
        {loading ? (
          <Loading />
        ) : home.error ? (
          <ErrorAlert message={errorText(home.error)} />
        ) : courses.length ? (
          <Carousel label="Course carousel">
            {courses.map((c) => (
              <CourseCard key={c.id} course={c} />
            ))}
          </Carousel>
        ) : (
          <EmptyState hint="New courses are published regularly. Check back soon." />
        )}
      </Stack>

      <Stack component="section" aria-labelledby="certifications-title" gap="md">
        <Group justify="space-between">
          <Title id="certifications-title" order={2}>
            Certifications
          </Title>
          <Button component={Link} to="/certifications" variant="subtle">
            View all certifications
          </Button>
        </Group>
        {loading ? (
          <Loading />
        ) : home.error ? null : certifications.length ? (
          <Carousel label="Certification carousel">
            {certifications.map((c) => (
              <CertificationCard key={c.id} cert={c} />
            ))}
          </Carousel>
        ) : (
          <EmptyState hint="Certification tracks will appear here." />
        )}
      </Stack>
    </>
  );
}
