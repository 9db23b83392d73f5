import {
  ActionIcon,
  Button,
  Checkbox,
  FileInput,
  Group,
  Modal,
  NumberInput,
  Paper,
  Select,
  Stack,
  Text,
  Textarea,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  IconEdit,
  IconList,
  IconPencil,
  IconPlayerPlay,
  IconPlus,
  IconRefresh,
  IconTrash,
  IconUpload,
  IconUserPlus,
} from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { apiPost, errorText, toFormErrors } from '../../api/client';
import { uploadVideo } from '../../api/resumable-upload';
import { apiUpload } from '../../api/upload';
import { useApiQuery } from '../../api/use-api';
import { usePagedQuery } from '../../api/use-paged-query';
import { useRouteTitle } from '../../app/route-title';
import { BackLink } from '../../ui/BackLink';
import { confirmAction } from '../../ui/confirm';
import { DataTable, type DataTableColumn } from '../../ui/DataTable';
import { ErrorAlert } from '../../ui/ErrorAlert';
import { LoadingLines } from '../../ui/Loading';
import { PageHeader } from '../../ui/PageHeader';
import { UploadProgress } from '../../ui/UploadProgress';
import { CaptionsPanel, type CaptionTrack } from './CaptionsPanel';
import { type CourseItem, cutDescription, formatDuration, rupees, type TopicRow, VideoStatusBadge } from './shared';
import { TranscriptPanel } from './TranscriptPanel';

/** /all-courses: the tenant's courses with start, edit, assign users and users list (spec 02 §2). */
export function AllCoursesPage() {
  const title = useRouteTitle();
  const { list, query } = usePagedQuery<CourseItem>('get-courses');
  const columns: DataTableColumn<CourseItem>[] = [
    { accessor: 'name', title: 'Course Name', sortable: true },
    { accessor: 'amount', title: 'Course Amount', sortable: true, render: (c) => rupees(c.amount) },
    { accessor: 'description', title: 'Description', render: (c) => cutDescription(c.description) },
    {
      accessor: 'actions',
      title: 'Action',
      textAlign: 'right',
      render: (c) => (
        <Group gap={4} justify="flex-end" wrap="nowrap">
          <Tooltip label="Start">
            <ActionIcon
              variant="subtle"
              color="green"
              component={Link}
              to={`/course/${c.slug}`}
              aria-label={`Start ${c.name}`}
            >
              <IconPlayerPlay size={18} aria-hidden />
            </ActionIcon>
          </Tooltip>
          <Tooltip label="Edit">
            <ActionIcon variant="subtle" component={Link} to={`/course-view/${c.slug}`} aria-label={`Edit ${c.name}`}>
              <IconEdit size={18} aria-hidden />
            </ActionIcon>
          </Tooltip>
          <Tooltip label="Assign users">
            <ActionIcon
              variant="subtle"
              component={Link}
              to={`/course/assign-to-users/${c.slug}`}
              aria-label={`Assign users to ${c.name}`}
            >
              <IconUserPlus size={18} aria-hidden />
            </ActionIcon>
          </Tooltip>
          <Tooltip label="Users list">
            <ActionIcon
              variant="subtle"
              component={Link}
              to={`/course/assign-users-list/${c.slug}`}
              aria-label={`Users of ${c.name}`}
            >
              <IconList size={18} aria-hidden />
            </ActionIcon>
          </Tooltip>
        </Group>
      ),
    },
  ];
  return (
    <Stack gap="md">
      <PageHeader
        title={title}
        description="Recorded courses of your organization: play, edit, assign and follow learners."
        actions={
          <Tooltip label="Create course">
            <ActionIcon component={Link} to="/create-course" size="lg" aria-label="Create course">
              <IconPlus size={20} aria-hidden />
            </ActionIcon>
          </Tooltip>
        }
      />
      <DataTable
        label="All courses"
        records={query.data?.list}
        loading={query.isLoading}
        error={query.error}
        columns={columns}
        paged={{ list, total: query.data?.total, capped: query.data?.total_capped, searchable: true }}
      />
    </Stack>
  );
}

/** The 'Add New' popup of a course. */
function NewCourseModal({
  opened,
  onClose,
  onCreated,
}: {
  opened: boolean;
  onClose: () => void;
  onCreated: (id: number) => void;
}) {
  const [values, setValues] = useState({
    name: '',
    amount: '' as number | string,
    is_paid: false,
    is_public: false,
    description: '',
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [other, setOther] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const local: Record<string, string> = {};
    if (!values.name.trim()) local.name = 'The name field is required.';
    if (values.amount === '') local.amount = 'The amount field is required.';
    setErrors(local);
    if (Object.keys(local).length) return;
    setBusy(true);
    try {
      const res = await apiPost<{ id: number; message: string }>('create-course', {
        ...values,
        is_paid: values.is_paid ? 1 : 0,
        is_public: values.is_public ? 1 : 0,
      });
      notifications.show({ color: 'green', message: res.message });
      setValues({ name: '', amount: '', is_paid: false, is_public: false, description: '' });
      onCreated(res.id);
    } catch (err) {
      const m = toFormErrors(err);
      setErrors(m.fields);
      setOther(m.other_error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal opened={opened} onClose={onClose} title="Add New Course">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <ErrorAlert message={other} />
          <TextInput
            label="Course Name"
            required
            value={values.name}
            error={errors.name}
            onChange={(e) => setValues({ ...values, name: e.currentTarget.value })}
          />
          <NumberInput
            label="Course Amount"
            required
            min={0}
            decimalScale={2}
            value={values.amount}
            error={errors.amount}
            onChange={(v) => setValues({ ...values, amount: v })}
          />
          <Checkbox
            label="Paid course"
            checked={values.is_paid}
            error={errors.is_paid}
            onChange={(e) => setValues({ ...values, is_paid: e.currentTarget.checked })}
          />
          <Checkbox
            label="Public (in the catalogue)"
            checked={values.is_public}
            error={errors.is_public}
            onChange={(e) => setValues({ ...values, is_public: e.currentTarget.checked })}
          />
          <Textarea
            label="Description"
            value={values.description}
            error={errors.description}
            onChange={(e) => setValues({ ...values, description: e.currentTarget.value })}
          />
          <Group justify="flex-end">
            <Button type="submit" loading={busy}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** The 'Add New' popup of a module. */
function NewModuleModal({
  courseId,
  opened,
  onClose,
  onCreated,
}: {
  courseId: number | null;
  opened: boolean;
  onClose: () => void;
  onCreated: (id: number) => void;
}) {
  const [name, setName] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim()) return setError('The name field is required.');
    setBusy(true);
    try {
      const res = await apiPost<{ id: number; message: string }>('create-module', { course_id: courseId, name });
      notifications.show({ color: 'green', message: res.message });
      setName('');
      setError(undefined);
      onCreated(res.id);
    } catch (err) {
      const m = toFormErrors(err);
      setError(m.fields.name ?? m.fields.course_id ?? m.other_error ?? undefined);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal opened={opened} onClose={onClose} title="Add New Module">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput
            label="Module Name"
            required
            value={name}
            error={error}
            onChange={(e) => setName(e.currentTarget.value)}
          />
          <Group justify="flex-end">
            <Button type="submit" loading={busy}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

interface TopicFormProps {
  /** editing: the topic as it is */
  topic?: TopicRow & { course_id: number };
  onDone: () => void;
}

/** Course, module (each with Add New), topic name, video with an upload progress bar, description. */
function TopicForm({ topic, onDone }: TopicFormProps) {
  const client = useQueryClient();
  const courses = useApiQuery<{ list: CourseItem[] }>('get-courses', { per_page: 100, sort: 'name' });
  const [courseId, setCourseId] = useState<number | null>(topic?.course_id ?? null);
  const modules = useApiQuery<{ list: { id: number; name: string }[] }>(
    'get-modules',
    { course_id: courseId },
    { enabled: !!courseId },
  );
  const [moduleId, setModuleId] = useState<number | null>(topic?.module_id ?? null);
  const [name, setName] = useState(topic?.topic ?? '');
  const [description, setDescription] = useState(topic?.description ?? '');
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  /** the finished resumable upload of the chosen file, kept so fixing another field does not upload again */
  const [uploaded, setUploaded] = useState<{ file: File; id: string } | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [other, setOther] = useState<string | null>(null);
  const [modal, setModal] = useState<'course' | 'module' | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const local: Record<string, string> = {};
    if (!courseId) local.course = 'The course field is required.';
    if (!moduleId) local.module_id = 'The module id field is required.';
    if (!name.trim()) local.name = 'The name field is required.';
    if (!topic && !file) local.course_url = 'The course url field is required.';
    setErrors(local);
    setOther(null);
    if (Object.keys(local).length) return;
    setProgress(0);
    try {
      // the video travels first, resumably (tus); the topic then names the finished upload
      let uploadId: string | null = null;
      if (file) {
        uploadId = uploaded?.file === file ? uploaded.id : await uploadVideo(file, setProgress);
        setUploaded({ file, id: uploadId });
      }
      const fields: Record<string, string> = { module_id: String(moduleId), name, description };
      if (topic) fields.topic_id = String(topic.topic_id);
      if (uploadId) fields.tus_upload_id = uploadId;
      const res = await apiUpload<{ message: string }>(topic ? 'update-all-course' : 'create-all-course', fields);
      notifications.show({ color: 'green', message: res.message });
      await client.invalidateQueries({ queryKey: ['get-course-module-topic-list'] });
      onDone();
    } catch (err) {
      const m = toFormErrors(err);
      // an upload refused or taken already cannot be named again
      if (m.fields.course_url || m.fields.tus_upload_id) setUploaded(null);
      setErrors({ ...m.fields, ...(m.fields.tus_upload_id ? { course_url: m.fields.tus_upload_id } : {}) });
      setOther(m.other_error);
      setProgress(null);
    }
  };

  if (courses.isLoading) return <LoadingLines />;
  const courseOptions = (courses.data?.list ?? []).map((c) => ({ value: String(c.id), label: c.name }));
  const moduleOptions = (modules.data?.list ?? []).map((m) => ({ value: String(m.id), label: m.name }));
  const uploading = progress !== null;
  return (
    <Paper withBorder radius="md" p="md" component="form" onSubmit={submit} noValidate>
      <Stack gap="md" maw={640}>
        <ErrorAlert message={other ?? (courses.error ? 'The courses could not be loaded.' : null)} />
        <Group align="flex-end" wrap="nowrap">
          <Select
            label="Course"
            required
            searchable
            flex={1}
            data={courseOptions}
            value={courseId ? String(courseId) : null}
            disabled={!!topic}
            error={errors.course}
            onChange={(v) => {
              setCourseId(v ? Number(v) : null);
              setModuleId(null);
            }}
          />
          {topic ? null : (
            <Button variant="light" leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setModal('course')}>
              Add New
            </Button>
          )}
        </Group>
        <Group align="flex-end" wrap="nowrap">
          <Select
            label="Module"
            required
            flex={1}
            data={moduleOptions}
            value={moduleId ? String(moduleId) : null}
            disabled={!courseId}
            error={errors.module_id}
            onChange={(v) => setModuleId(v ? Number(v) : null)}
          />
          <Button
            variant="light"
            leftSection={<IconPlus size={16} aria-hidden />}
            disabled={!courseId}
            onClick={() => setModal('module')}
          >
            Add New
          </Button>
        </Group>
        <TextInput
          label="Topic Name"
          required
          value={name}
          error={errors.name}
          onChange={(e) => setName(e.currentTarget.value)}
        />
        <FileInput
          label="Video"
          description={
            topic
              ? 'Leave empty to keep the current video. An interrupted upload resumes when you choose the same file again.'
              : 'MP4, WebM, MOV… checked by its content after upload. An interrupted upload resumes when you choose the same file again.'
          }
          required={!topic}
          accept="video/*"
          clearable
          leftSection={<IconUpload size={16} aria-hidden />}
          value={file}
          error={errors.course_url ?? errors.other_error}
          onChange={setFile}
        />
        {uploading ? <UploadProgress value={progress} doneText="Checking the video…" /> : null}
        <Textarea
          label="Description"
          autosize
          minRows={3}
          value={description}
          error={errors.description}
          onChange={(e) => setDescription(e.currentTarget.value)}
        />
        <Group justify="flex-end">
          <Button type="submit" loading={uploading}>
            {topic ? 'Update' : 'Save'}
          </Button>
        </Group>
      </Stack>
      <NewCourseModal
        opened={modal === 'course'}
        onClose={() => setModal(null)}
        onCreated={async (id) => {
          await client.invalidateQueries({ queryKey: ['get-courses'] });
          setCourseId(id);
          setModuleId(null);
          setModal(null);
        }}
      />
      <NewModuleModal
        courseId={courseId}
        opened={modal === 'module'}
        onClose={() => setModal(null)}
        onCreated={async (id) => {
          await client.invalidateQueries({ queryKey: ['get-modules'] });
          setModuleId(id);
          setModal(null);
        }}
      />
    </Paper>
  );
}

/** /create-course: add a topic (spec 02 §2); success goes to /all-courses. */
export function CreateCoursePage() {
  const title = useRouteTitle();
  const navigate = useNavigate();
  return (
    <Stack gap="md">
      <PageHeader
        title={title}
        description="Add a topic: choose or add a course and a module, then upload the video."
      />
      <TopicForm onDone={() => navigate('/all-courses')} />
    </Stack>
  );
}

/** /course-view/{slug}: Course Topics with Course, Module, Topic, Edit and Delete. */
export function CourseViewPage() {
  const title = useRouteTitle();
  const { slug = '' } = useParams();
  const client = useQueryClient();
  const { list, query } = usePagedQuery<TopicRow>('get-course-module-topic-list', { slug });
  const anyProcessing = query.data?.list.some((t) => t.video_status === 'processing');
  // while a video is processing the list refreshes itself
  useEffect(() => {
    if (!anyProcessing) return;
    const timer = window.setInterval(() => void query.refetch(), 3000);
    return () => window.clearInterval(timer);
  }, [anyProcessing, query]);
  const act = async (path: string, t: TopicRow) => {
    try {
      const res = await apiPost<{ message: string }>(path, { slug: t.tslug });
      notifications.show({ color: path === 'delete-topic' ? 'red' : 'green', message: res.message });
      await client.invalidateQueries({ queryKey: ['get-course-module-topic-list'] });
    } catch (err) {
      notifications.show({ color: 'red', message: errorText(err) });
    }
  };
  const columns: DataTableColumn<TopicRow>[] = [
    { accessor: 'course', title: 'Course' },
    { accessor: 'module', title: 'Module', sortable: true },
    { accessor: 'topic', title: 'Topic', sortable: true },
    { accessor: 'duration', title: 'Duration', render: (t) => formatDuration(t.duration) },
    {
      accessor: 'video_status',
      title: 'Video',
      render: (t) => (
        <Stack gap={2}>
          <VideoStatusBadge status={t.video_status} error={t.video_error} />
          {t.video_status === 'failed' ? (
            <Text size="xs" c="red">
              {t.video_error}
            </Text>
          ) : null}
        </Stack>
      ),
    },
    {
      accessor: 'actions',
      title: 'Edit / Delete',
      textAlign: 'right',
      render: (t) => (
        <Group gap={4} justify="flex-end" wrap="nowrap">
          {t.video_status === 'failed' ? (
            <Tooltip label="Retry processing">
              <ActionIcon
                variant="subtle"
                aria-label={`Retry processing ${t.topic}`}
                onClick={() => void act('retry-topic-video', t)}
              >
                <IconRefresh size={18} aria-hidden />
              </ActionIcon>
            </Tooltip>
          ) : null}
          <Tooltip label="Edit">
            <ActionIcon variant="subtle" component={Link} to={`/edit-course/${t.tslug}`} aria-label={`Edit ${t.topic}`}>
              <IconPencil size={18} aria-hidden />
            </ActionIcon>
          </Tooltip>
          <Tooltip label="Delete">
            <ActionIcon
              variant="subtle"
              color="red"
              aria-label={`Delete ${t.topic}`}
              onClick={() =>
                confirmAction({
                  title: 'Delete topic',
                  message: `Delete the topic "${t.topic}" and its video?`,
                  danger: true,
                  onConfirm: () => void act('delete-topic', t),
                })
              }
            >
              <IconTrash size={18} aria-hidden />
            </ActionIcon>
          </Tooltip>
        </Group>
      ),
    },
  ];
  return (
    <Stack gap="md">
      <PageHeader
        title={title}
        description="Course Topics"
        actions={<BackLink to="/all-courses">All courses</BackLink>}
      />
      <DataTable
        label="Course Topics"
        idAccessor="topic_id"
        records={query.data?.list}
        loading={query.isLoading}
        error={query.error}
        columns={columns}
        paged={{ list, total: query.data?.total, capped: query.data?.total_capped, searchable: true }}
      />
    </Stack>
  );
}

/** /edit-course/{topic slug}: edit a topic; the video is optional. */
export function EditCoursePage() {
  const title = useRouteTitle();
  const navigate = useNavigate();
  const { slug = '' } = useParams();
  const details = useApiQuery<{ success: TopicRow & { caption_tracks: CaptionTrack[]; transcript: string | null } }>(
    'get-topic-details',
    { slug },
  );
  const course = useApiQuery<{ success: CourseItem }>(
    'get-course-details',
    { slug: details.data?.success.course_slug },
    { enabled: !!details.data },
  );
  const topic = details.data?.success;
  return (
    <Stack gap="md">
      <PageHeader
        title={title}
        actions={topic ? <BackLink to={`/course-view/${topic.course_slug}`}>Course topics</BackLink> : null}
      />
      {details.error ? <ErrorAlert message="The topic could not be loaded." /> : null}
      {topic && course.data ? (
        <>
          <TopicForm
            topic={{ ...topic, course_id: course.data.success.id }}
            onDone={() => navigate(`/course-view/${topic.course_slug}`)}
          />
          <CaptionsPanel slug={topic.tslug} tracks={topic.caption_tracks} />
          <TranscriptPanel slug={topic.tslug} transcript={topic.transcript} tracks={topic.caption_tracks} />
        </>
      ) : details.error ? null : (
        <LoadingLines />
      )}
    </Stack>
  );
}
