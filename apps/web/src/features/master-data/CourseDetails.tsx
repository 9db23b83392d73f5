import { ActionIcon, Group, List, Paper, Stack, Text, Title, Tooltip } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { EmptyState } from '../../ui/EmptyState';
import { IconAction, money, type TrainingCourseWithModules } from './shared';

/** The View popup of a training course: its modules and their topics, each with Delete. */
export function CourseDetails({
  course,
  onDelete,
}: {
  course: TrainingCourseWithModules;
  onDelete: (kind: 'module' | 'topic', id: number, name: string) => void;
}) {
  if (course.modules.length === 0) return <EmptyState hint="This course has no modules yet." />;
  return (
    <Stack gap="md">
      {course.modules.map((m) => (
        <Paper key={m.id} withBorder radius="md" p="sm">
          <Group justify="space-between" wrap="nowrap" mb="xs">
            <div>
              <Title order={3} size="h5">
                {m.name}
              </Title>
              <Text size="xs" c="dimmed">
                Price {money(m.price)} · Duration {m.duration}
              </Text>
            </div>
            <IconAction label={`Delete module ${m.name}`} color="red" onClick={() => onDelete('module', m.id, m.name)}>
              <IconTrash size={16} aria-hidden />
            </IconAction>
          </Group>
          {m.topics.length === 0 ? (
            <Text size="sm" c="dimmed">
              No topics.
            </Text>
          ) : (
            <List spacing={4} size="sm" listStyleType="none">
              {m.topics.map((t) => (
                <List.Item key={t.id}>
                  <Group justify="space-between" wrap="nowrap" gap="xs">
                    <Text size="sm">{t.name}</Text>
                    <Tooltip label="Delete">
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        size="sm"
                        aria-label={`Delete topic ${t.name}`}
                        onClick={() => onDelete('topic', t.id, t.name)}
                      >
                        <IconTrash size={14} aria-hidden />
                      </ActionIcon>
                    </Tooltip>
                  </Group>
                </List.Item>
              ))}
            </List>
          )}
        </Paper>
      ))}
    </Stack>
  );
}
