import {
  ActionIcon,
  Button,
  Grid,
  Group,
  Modal,
  NativeSelect,
  Paper,
  Stack,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconEye, IconPlus, IconX } from '@tabler/icons-react';
import { MSG } from '@trainlab/contract';
import { useState } from 'react';
import { Link } from 'react-router';
import { errorText } from '../../api/client';
import { useApiQuery } from '../../api/use-api';
import { useApiForm } from '../../api/use-api-form';
import { useRouteTitle } from '../../app/route-title';
import { ErrorAlert } from '../../ui/ErrorAlert';
import { PageHeader } from '../../ui/PageHeader';
import { CourseModalForm } from './CourseModalForm';
import { ModuleModalForm } from './ModuleModalForm';
import { placeholder } from './select-placeholder';
import { required } from './shared';

const LIST = '/admin/training-course-list';

interface TopicValues extends Record<string, unknown> {
  course: string;
  module: string;
  topic: string;
  topics: string[];
}
/** /admin/create-training-course: pick (or add) a course and module, list topics, submit. */
export function CreateTrainingCoursePage() {
  const title = useRouteTitle();
  const [modal, setModal] = useState<'course' | 'module' | null>(null);
  const { form, onSubmit, otherError, setOtherError, clearAllErrors, submitting } = useApiForm<
    TopicValues,
    'create-training-topic'
  >({
    path: 'create-training-topic',
    initialValues: { course: '', module: '', topic: '', topics: [] },
    validate: {
      course: required('course'),
      module: required('module'),
      topics: (v) => (v.length ? null : 'Add at least one topic.'),
    },
    toBody: (v) => ({ course: Number(v.course), module: Number(v.module), topics: v.topics }),
    onSuccess: (data) => {
      notifications.show({ color: 'green', message: data.message || MSG.recordAdded });
      form.reset();
    },
  });
  const courseId = form.values.course;
  const courses = useApiQuery('get-all-training-course-list');
  const modules = useApiQuery('training-module-list', { course_id: Number(courseId) }, { enabled: courseId !== '' });

  const addTopic = () => {
    const name = form.values.topic.trim();
    if (!name) return form.setFieldError('topic', 'Enter a topic name.');
    form.setFieldValue('topics', [...form.values.topics, name]);
    form.setFieldValue('topic', '');
  };
  const courseProps = form.getInputProps('course');
  const listError = courses.error ?? modules.error;

  return (
    <Stack gap="md">
      <PageHeader
        title={title}
        actions={
          <Button component={Link} to={LIST} variant="light" leftSection={<IconEye size={16} aria-hidden />}>
            View Course
          </Button>
        }
      />
      <Paper withBorder radius="md" p="lg">
        <ErrorAlert message={otherError ?? (listError ? errorText(listError) : null)} />
        <form onSubmit={onSubmit} noValidate aria-label="Training course topics">
          <Stack gap="md">
            <Grid>
              <Grid.Col span={{ base: 12, md: 6 }}>
                <Group align="flex-start" gap="xs" wrap="nowrap">
                  <NativeSelect
                    label="Course"
                    withAsterisk
                    style={{ flex: 1 }}
                    data={[
                      placeholder('Course', courses.isLoading),
                      ...(courses.data?.list ?? []).map((c) => ({ value: String(c.id), label: c.name })),
                    ]}
                    {...courseProps}
                    onChange={(e) => {
                      courseProps.onChange(e);
                      form.setFieldValue('module', '');
                    }}
                  />
                  <Button
                    variant="light"
                    mt={25}
                    leftSection={<IconPlus size={14} aria-hidden />}
                    aria-label="Add New Course"
                    onClick={() => setModal('course')}
                  >
                    Add New
                  </Button>
                </Group>
              </Grid.Col>
              <Grid.Col span={{ base: 12, md: 6 }}>
                <Group align="flex-start" gap="xs" wrap="nowrap">
                  <NativeSelect
                    label="Module"
                    withAsterisk
                    style={{ flex: 1 }}
                    disabled={courseId === ''}
                    data={[
                      placeholder('Module', modules.isFetching),
                      ...(modules.data?.list ?? []).map((m) => ({ value: String(m.id), label: m.name })),
                    ]}
                    {...form.getInputProps('module')}
                  />
                  <Button
                    variant="light"
                    mt={25}
                    leftSection={<IconPlus size={14} aria-hidden />}
                    aria-label="Add New Module"
                    disabled={courseId === ''}
                    onClick={() => setModal('module')}
                  >
                    Add New
                  </Button>
                </Group>
              </Grid.Col>
            </Grid>
            <Group align="flex-start" gap="xs" wrap="nowrap">
              <TextInput
                label="Topic name"
                style={{ flex: 1 }}
                {...form.getInputProps('topic')}
                onKeyDown={(e) => {
                  if (e.key === 'Enter') {
                    e.preventDefault();
                    addTopic();
                  }
                }}
              />
              <Button mt={25} variant="light" leftSection={<IconPlus size={14} aria-hidden />} onClick={addTopic}>
                Add Topic
              </Button>
            </Group>
            <Stack gap={6}>
              <Text fw={600} size="sm">
                Topics ({form.values.topics.length})
              </Text>
              {form.values.topics.length === 0 ? (
                <Text size="sm" c={form.errors.topics ? 'red' : 'dimmed'}>
                  {form.errors.topics ?? 'No topics added yet.'}
                </Text>
              ) : (
                <Stack gap={4} component="ol" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Topics">
                  {form.values.topics.map((t, i) => (
                    <Group
                      key={`${i}-${t}`}
                      component="li"
                      justify="space-between"
                      wrap="nowrap"
                      px="sm"
                      py={4}
                      style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 6 }}
                    >
                      <Text size="sm">
                        {i + 1}. {t}
                      </Text>
                      <Tooltip label="Remove">
                        <ActionIcon
                          variant="subtle"
                          color="red"
                          aria-label={`Remove topic ${t}`}
                          onClick={() =>
                            form.setFieldValue(
                              'topics',
                              form.values.topics.filter((_, j) => j !== i),
                            )
                          }
                        >
                          <IconX size={14} aria-hidden />
                        </ActionIcon>
                      </Tooltip>
                    </Group>
                  ))}
                </Stack>
              )}
            </Stack>
            <Group justify="flex-end">
              <Button
                variant="default"
                onClick={() => {
                  form.reset();
                  clearAllErrors();
                  setOtherError(null);
                }}
              >
                Reset
              </Button>
              <Button type="submit" loading={submitting}>
                Submit
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
      <Modal opened={modal === 'course'} onClose={() => setModal(null)} title="Add New Course" size="lg">
        {modal === 'course' ? (
          <CourseModalForm
            onDone={(id) => {
              setModal(null);
              if (id !== undefined) {
                form.setFieldValue('course', String(id));
                form.setFieldValue('module', '');
              }
            }}
          />
        ) : null}
      </Modal>
      <Modal opened={modal === 'module'} onClose={() => setModal(null)} title="Add New Module">
        {modal === 'module' && courseId !== '' ? (
          <ModuleModalForm
            course={Number(courseId)}
            onDone={(id) => {
              setModal(null);
              if (id !== undefined) form.setFieldValue('module', String(id));
            }}
          />
        ) : null}
      </Modal>
    </Stack>
  );
}
