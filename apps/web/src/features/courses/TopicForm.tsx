import { Button, FileInput, Group, Paper, Select, Stack, Textarea, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPlus, IconUpload } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import type { UploadFields } from '../../api/call-types';
import { toFormErrors } from '../../api/client';
import { uploadVideo } from '../../api/resumable-upload';
import { apiUpload } from '../../api/upload';
import { useApiQuery } from '../../api/use-api';
import { ErrorAlert } from '../../ui/ErrorAlert';
import { LoadingLines } from '../../ui/Loading';
import { UploadProgress } from '../../ui/UploadProgress';
import { NewCourseModal } from './NewCourseModal';
import { NewModuleModal } from './NewModuleModal';
import type { TopicRow } from './shared';

interface TopicFormProps {
  /** editing: the topic as it is */
  topic?: TopicRow & { course_id: number };
  onDone: () => void;
}
/** Course, module (each with Add New), topic name, video with an upload progress bar, description. */
export function TopicForm({ topic, onDone }: TopicFormProps) {
  const client = useQueryClient();
  const courses = useApiQuery('get-courses', { per_page: 100, sort: 'name' });
  const [courseId, setCourseId] = useState<number | null>(topic?.course_id ?? null);
  const modules = useApiQuery('get-modules', { course_id: courseId }, { enabled: !!courseId });
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
      const fields: UploadFields<'update-all-course'> = { module_id: String(moduleId), name, description };
      if (topic) fields.topic_id = String(topic.topic_id);
      if (uploadId) fields.tus_upload_id = uploadId;
      const res = await apiUpload(topic ? 'update-all-course' : 'create-all-course', fields);
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
