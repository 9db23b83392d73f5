import { Accordion, Badge, Button, Group, List, Stack, Text, Title } from '@mantine/core';
import type { CatalogueCourseDetails } from '@trainlab/contract';
import { Link, useParams } from 'react-router';
import { ApiError } from '../../api/client';
import { useApiQuery } from '../../api/use-api';
import { BackLink } from '../../ui/BackLink';
import { EmptyState } from '../../ui/EmptyState';
import { PageHeader } from '../../ui/PageHeader';
import { BuyBox } from '../payments/BuyBox';
import { CatalogueItemFrame } from './CatalogueItemFrame';
import { inr } from './cards';

/** 610 s → '10 min'; under a minute → '1 min'; unknown (still processing) → null. */
const minutes = (seconds: number | null) => (seconds === null ? null : `${Math.max(1, Math.round(seconds / 60))} min`);

function Modules({ course }: { course: CatalogueCourseDetails }) {
  if (course.modules.length === 0) {
    return <EmptyState message="The modules of this course are being prepared." />;
  }
  return (
    <Accordion variant="separated" multiple defaultValue={[String(course.modules[0]!.id)]}>
      {course.modules.map((m) => (
        <Accordion.Item key={m.id} value={String(m.id)}>
          <Accordion.Control>
            <Group gap="xs" wrap="nowrap">
              <Text fw={600}>{m.name}</Text>
              <Badge variant="light" color="gray">
                {m.topics.length === 1 ? '1 topic' : `${m.topics.length} topics`}
              </Badge>
            </Group>
          </Accordion.Control>
          <Accordion.Panel>
            {m.topics.length ? (
              <List spacing={4} size="sm">
                {m.topics.map((t, i) => (
                  // topics carry no id on this public page; their order within the module is stable
                  // biome-ignore lint/suspicious/noArrayIndexKey: see above
                  <List.Item key={i}>
                    {t.name}
                    {minutes(t.duration_seconds) ? (
                      <Text span c="dimmed">
                        {' '}
                        · {minutes(t.duration_seconds)}
                      </Text>
                    ) : null}
                  </List.Item>
                ))}
              </List>
            ) : (
              <Text size="sm" c="dimmed">
                Topics are coming soon.
              </Text>
            )}
          </Accordion.Panel>
        </Accordion.Item>
      ))}
    </Accordion>
  );
}

/** /course-details/{slug}: a catalogue course's public page — what it teaches, its price, Add to cart. */
export function CourseDetailsPage() {
  const slug = useParams().slug ?? '';
  const q = useApiQuery('get-catalogue-course', { slug }, { enabled: !!slug });
  const c = q.data;
  const gone = q.error instanceof ApiError && q.error.status === 404;
  return (
    <Stack>
      <PageHeader
        title={c?.name ?? 'Course details'}
        description={c?.offered_by ? `Offered by ${c.offered_by}` : <BackLink to="/courses">All courses</BackLink>}
      />
      <CatalogueItemFrame
        gone={gone || !slug}
        query={q}
        missing="This course is not in the catalogue."
        browse={{ to: '/courses', label: 'Browse courses' }}
        content={
          c
            ? {
                main: (
                  <Stack>
                    {c.description ? <Text style={{ whiteSpace: 'pre-line' }}>{c.description}</Text> : null}
                    <Title order={2} size="h4">
                      What the course covers
                    </Title>
                    <Modules course={c} />
                    <BackLink to="/courses">All courses</BackLink>
                  </Stack>
                ),
                aside: (
                  <BuyBox
                    type="is_course"
                    id={c.id}
                    name={c.name}
                    price={inr(c.amount)}
                    owned={
                      c.owned ? (
                        <Stack gap="xs">
                          <Text>You already have this course.</Text>
                          <Group>
                            <Button component={Link} to={`/course/${c.slug}`}>
                              Open the course
                            </Button>
                          </Group>
                        </Stack>
                      ) : undefined
                    }
                  />
                ),
              }
            : null
        }
      />
    </Stack>
  );
}
