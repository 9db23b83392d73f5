import {
  ActionIcon,
  Badge,
  Button,
  Grid,
  Group,
  List,
  Modal,
  NativeSelect,
  Paper,
  Stack,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconEye, IconPlus, IconTrash, IconX } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { DURATION_TYPES, MSG, TRAINING_COURSE_LEVELS } from '@trainlab/contract';
import { useState } from 'react';
import { Link } from 'react-router';
import { apiPost, errorText } from '../../api/client';
import { useApiQuery } from '../../api/use-api';
import { useApiForm } from '../../api/use-api-form';
import { useRouteTitle } from '../../app/route-title';
import { confirmAction } from '../../ui/confirm';
import { DataTable, type DataTableColumn } from '../../ui/DataTable';
import { EmptyState } from '../../ui/EmptyState';
import { ErrorAlert } from '../../ui/ErrorAlert';
import { PageHeader } from '../../ui/PageHeader';
import {
  type Category,
  IconAction,
  type ListOf,
  money,
  required,
  type TrainingCourse,
  type TrainingCourseWithModules,
  type TrainingModule,
  type WriteResponse,
} from './shared';

const LIST = '/admin/training-course-list';
const placeholder = (label: string, loading = false) => ({
  value: '',
  label: loading ? 'Loading…' : `Select ${label}`,
});

function CourseModalForm({ onDone }: { onDone: (id?: number) => void }) {
  const client = useQueryClient();
  const categories = useApiQuery<ListOf<Category>>('category-list');
  const { form, onSubmit, otherError, submitting } = useApiForm({
    path: 'create-training-course',
    initialValues: { name: '', category: '', level: '', duration: '', duration_type: '', price: '' },
    validate: {
      name: required('name'),
      category: required('category'),
      level: required('level'),
      duration: required('duration'),
      duration_type: required('duration type'),
      price: required('price'),
    },
    toBody: (v) => ({ ...v, name: v.name.trim(), category: Number(v.category) }),
    onSuccess: async (data: WriteResponse) => {
      notifications.show({ color: 'green', message: data.message || MSG.recordAdded });
      await client.invalidateQueries({ queryKey: ['get-all-training-course-list'] });
      await client.invalidateQueries({ queryKey: ['training-course-list'] });
      onDone(data.id);
    },
  });
  return (
    <form onSubmit={onSubmit} noValidate>
      <ErrorAlert message={otherError ?? (categories.error ? errorText(categories.error) : null)} />
      <Grid>
        <Grid.Col span={12}>
          <TextInput label="Course name" withAsterisk data-autofocus {...form.getInputProps('name')} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: 6 }}>
          <NativeSelect
            label="Category"
            withAsterisk
            data={[
              placeholder('Category', categories.isLoading),
              ...(categories.data?.list ?? []).map((c) => ({ value: String(c.id), label: c.name })),
            ]}
            {...form.getInputProps('category')}
          />
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: 6 }}>
          <NativeSelect
            label="Level"
            withAsterisk
            data={[placeholder('Level'), ...TRAINING_COURSE_LEVELS]}
            {...form.getInputProps('level')}
          />
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: 6 }}>
          <TextInput label="Duration" withAsterisk inputMode="decimal" {...form.getInputProps('duration')} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: 6 }}>
          <NativeSelect
            label="Duration type"
            withAsterisk
            data={[placeholder('Duration type'), ...DURATION_TYPES]}
            {...form.getInputProps('duration_type')}
          />
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: 6 }}>
          <TextInput label="Price" withAsterisk inputMode="decimal" {...form.getInputProps('price')} />
        </Grid.Col>
      </Grid>
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={() => onDone()}>
          Cancel
        </Button>
        <Button type="submit" loading={submitting}>
          Save
        </Button>
      </Group>
    </form>
  );
}

function ModuleModalForm({ course, onDone }: { course: number; onDone: (id?: number) => void }) {
  const client = useQueryClient();
  const { form, onSubmit, otherError, submitting } = useApiForm({
    path: 'create-training-module',
    initialValues: { name: '', price: '', duration: '' },
    validate: { name: required('name'), price: required('price'), duration: required('duration') },
    toBody: (v) => ({ ...v, name: v.name.trim(), course }),
    onSuccess: async (data: WriteResponse) => {
      notifications.show({ color: 'green', message: data.message || MSG.recordAdded });
      await client.invalidateQueries({ queryKey: ['training-module-list'] });
      await client.invalidateQueries({ queryKey: ['training-course-list'] });
      onDone(data.id);
    },
  });
  return (
    <form onSubmit={onSubmit} noValidate>
      <ErrorAlert message={otherError} />
      <Stack gap="sm">
        <TextInput label="Module name" withAsterisk data-autofocus {...form.getInputProps('name')} />
        <Group grow align="flex-start">
          <TextInput label="Price" withAsterisk inputMode="decimal" {...form.getInputProps('price')} />
          <TextInput label="Duration" withAsterisk inputMode="decimal" {...form.getInputProps('duration')} />
        </Group>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => onDone()}>
            Cancel
          </Button>
          <Button type="submit" loading={submitting}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

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
    WriteResponse
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
  const courses = useApiQuery<ListOf<TrainingCourse>>('get-all-training-course-list');
  const modules = useApiQuery<ListOf<TrainingModule>>(
    'training-module-list',
    { course_id: Number(courseId) },
    { enabled: courseId !== '' },
  );

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

function CourseDetails({
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

/** /admin/training-course-list: courses with View (modules and topics) and Delete. */
export function TrainingCourseListPage() {
  const title = useRouteTitle();
  const client = useQueryClient();
  const q = useApiQuery<ListOf<TrainingCourseWithModules>>('training-course-list');
  const [viewing, setViewing] = useState<TrainingCourseWithModules | null>(null);

  const reload = () =>
    Promise.all([
      client.invalidateQueries({ queryKey: ['training-course-list'] }),
      client.invalidateQueries({ queryKey: ['get-all-training-course-list'] }),
      client.invalidateQueries({ queryKey: ['training-module-list'] }),
    ]);

  const run = async (path: string, body: Record<string, number>, color: string, fallback: string) => {
    try {
      const res = await apiPost<{ message: string }>(path, body);
      notifications.show({ color, message: res.message || fallback });
    } catch (error) {
      notifications.show({ color: 'red', message: errorText(error) });
    }
    await reload();
  };

  const deleteCourse = (c: TrainingCourseWithModules) =>
    confirmAction({
      title: 'Delete course',
      message: `Delete "${c.name}" with its modules and topics?`,
      danger: true,
      onConfirm: () => run('delete-training-course', { course_id: c.id }, 'red', MSG.courseDeleted),
    });

  const deletePart = (kind: 'module' | 'topic', id: number, name: string) =>
    confirmAction({
      title: kind === 'module' ? 'Delete module' : 'Delete topic',
      message: kind === 'module' ? `Delete module "${name}" with its topics?` : `Delete topic "${name}"?`,
      danger: true,
      onConfirm: () => {
        setViewing(null);
        return run(
          kind === 'module' ? 'delete-training-module' : 'delete-training-topic',
          kind === 'module' ? { module_id: id } : { topic_id: id },
          'green',
          MSG.recordDeleted,
        );
      },
    });

  const columns: DataTableColumn<TrainingCourseWithModules>[] = [
    { accessor: 'name', title: 'Course' },
    { accessor: 'category_name', title: 'Category' },
    { accessor: 'level', title: 'Level' },
    { accessor: 'duration', title: 'Duration', render: (c) => `${c.duration} ${c.duration_type}` },
    { accessor: 'price', title: 'Price', textAlign: 'right', render: (c) => money(c.price) },
    {
      accessor: 'modules',
      title: 'Modules',
      textAlign: 'center',
      render: (c) => (
        <Badge variant="light" color="gray">
          {c.modules.length}
        </Badge>
      ),
    },
    {
      accessor: 'actions',
      title: 'Action',
      textAlign: 'right',
      render: (c) => (
        <Group gap={6} justify="flex-end" wrap="nowrap">
          <IconAction label={`View ${c.name}`} onClick={() => setViewing(c)}>
            <IconEye size={16} aria-hidden />
          </IconAction>
          <IconAction label={`Delete ${c.name}`} color="red" onClick={() => deleteCourse(c)}>
            <IconTrash size={16} aria-hidden />
          </IconAction>
        </Group>
      ),
    },
  ];

  return (
    <Stack gap="md">
      <PageHeader
        title={title}
        actions={
          <Button component={Link} to="/admin/create-training-course" leftSection={<IconPlus size={16} aria-hidden />}>
            Add
          </Button>
        }
      />
      <DataTable
        label="Training courses"
        records={q.data?.list}
        columns={columns}
        loading={q.isLoading}
        error={q.error}
        searchOn={['name', 'category_name', 'level']}
      />
      <Modal opened={viewing !== null} onClose={() => setViewing(null)} title={viewing?.name} size="lg">
        {viewing ? <CourseDetails course={viewing} onDelete={deletePart} /> : null}
      </Modal>
    </Stack>
  );
}
