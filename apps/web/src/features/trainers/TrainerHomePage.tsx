import { Anchor, Badge, Card, List, Progress, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { errorText } from '../../api/client';
import { useApiQuery } from '../../api/use-api';
import { EmptyState } from '../../ui/EmptyState';
import { ErrorAlert } from '../../ui/ErrorAlert';
import { LoadingLines } from '../../ui/Loading';
import { RoleHomePage } from '../home/RoleHomePage';
import { formatDateTime } from '../learner/format';

/** /trainer-home: the role home with take calls waiting for an answer, assigned trainings, profile completeness. */
export function TrainerHomePage() {
  return (
    <RoleHomePage>
      <TrainerDashboard />
    </RoleHomePage>
  );
}

function TrainerDashboard() {
  const q = useApiQuery('trainer-dashboard');
  const d = q.data;
  return (
    <Stack gap="md">
      {q.isLoading ? <LoadingLines lines={4} /> : null}
      <ErrorAlert message={q.error ? errorText(q.error) : null} />
      {d ? (
        <SimpleGrid cols={{ base: 1, md: 3 }}>
          <Card withBorder component="section" aria-labelledby="open-calls">
            <Title order={2} size="h4" id="open-calls">
              Take calls waiting <Badge ml="xs">{d.open_take_call_count}</Badge>
            </Title>
            {d.open_take_calls.length ? (
              <List mt="sm" spacing="xs">
                {d.open_take_calls.map((c) => (
                  <List.Item key={c.take_call_id}>
                    <Text fw={500}>{c.title}</Text>
                    <Text size="sm" c="dimmed">
                      {c.name} · {formatDateTime(c.start)}
                    </Text>
                  </List.Item>
                ))}
              </List>
            ) : (
              <EmptyState message="No take call is waiting for you." />
            )}
            <Anchor component={Link} to="/trainer-take-calls" mt="sm">
              All take calls
            </Anchor>
          </Card>
          <Card withBorder component="section" aria-labelledby="assigned">
            <Title order={2} size="h4" id="assigned">
              Assigned trainings
            </Title>
            {d.assigned_trainings.length ? (
              <List mt="sm" spacing="xs">
                {d.assigned_trainings.map((t) => (
                  <List.Item key={t.slug}>
                    <Text fw={500}>{t.name}</Text>
                    <Text size="sm" c="dimmed">
                      {t.next_session
                        ? `Next: ${t.next_session.session_topic}, ${formatDateTime(t.next_session.start_time)}`
                        : `Starts ${formatDateTime(t.start_date)}`}
                    </Text>
                  </List.Item>
                ))}
              </List>
            ) : (
              <EmptyState message="No training is assigned to you yet." />
            )}
            <Anchor component={Link} to="/trainer/assigned-trainings" mt="sm">
              All assigned trainings
            </Anchor>
          </Card>
          <Card withBorder component="section" aria-labelledby="completeness">
            <Title order={2} size="h4" id="completeness">
              Profile {d.profile_completeness}% complete
            </Title>
            <Progress value={d.profile_completeness} mt="sm" aria-label="Profile completeness" />
            {d.profile_missing.length ? (
              <Text size="sm" mt="sm">
                Missing: {d.profile_missing.join(', ')}
              </Text>
            ) : null}
            <Anchor component={Link} to="/trainer/update-profile" mt="sm">
              Update profile
            </Anchor>
          </Card>
        </SimpleGrid>
      ) : null}
    </Stack>
  );
}
