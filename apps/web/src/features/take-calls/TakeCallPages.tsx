import {
  Badge,
  Button,
  Card,
  Checkbox,
  Group,
  List,
  Modal,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  ThemeIcon,
  Title,
} from '@mantine/core';
import type { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { IconCheck, IconX } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { TAKE_CALL_TRAINER_STATUS_LABELS, type takeCallRow } from '@trainlab/contract';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import type { z } from 'zod';
import { apiPost, errorText, toFormErrors } from '../../api/client';
import { useApiQuery } from '../../api/use-api';
import { useApiForm } from '../../api/use-api-form';
import { usePagedQuery } from '../../api/use-paged-query';
import { useRouteTitle } from '../../app/route-title';
import { DataTable } from '../../ui/DataTable';
import { EmptyState } from '../../ui/EmptyState';
import { ErrorAlert } from '../../ui/ErrorAlert';
import { LoadingLines } from '../../ui/Loading';
import { formatUsd, RATE_CURRENCY_NOTE } from '../../ui/money';
import { PageHeader } from '../../ui/PageHeader';
import { RowLink } from '../../ui/RowLink';
import { decodeId, encodeId } from '../../ui/url-id';
import { formatDateTime } from '../learner/format';

type TakeCall = z.infer<typeof takeCallRow>;

/** 'YYYY-MM-DDTHH:mm' for a datetime-local input, and back to ISO for the server. */
const localNow = () => dayjs().format('YYYY-MM-DDTHH:mm');
export const toIso = (v: string) => (v ? dayjs(v).toISOString() : '');
const toLocal = (iso: string) => dayjs(iso).format('YYYY-MM-DDTHH:mm');

interface CallValues extends Record<string, unknown> {
  title: string;
  start: string;
  end: string;
}
const callValidate = {
  title: (v: string) => (v.trim() ? null : 'The title field is required.'),
  start: (v: string) =>
    !v
      ? 'The start field is required.'
      : dayjs(v).isBefore(dayjs().subtract(1, 'minute'))
        ? 'The start must be a date after or equal to now.'
        : null,
  end: (v: string, values: CallValues) =>
    !v
      ? 'The end field is required.'
      : values.start && !dayjs(v).isAfter(dayjs(values.start))
        ? 'The end must be a date after start.'
        : null,
};

function CallFields({ form }: { form: ReturnType<typeof useForm<CallValues>> }) {
  return (
    <>
      <TextInput label="Call Title" withAsterisk {...form.getInputProps('title')} />
      <TextInput
        label="Start Date & Time"
        type="datetime-local"
        withAsterisk
        min={localNow()}
        {...form.getInputProps('start')}
      />
      <TextInput
        label="End Date & Time"
        type="datetime-local"
        withAsterisk
        min={form.values.start || localNow()}
        {...form.getInputProps('end')}
      />
    </>
  );
}

/** /trainer/take/call/:slug: search trainers by their skills, pick several, create the take call. */
export function SearchTrainersPage() {
  const title = useRouteTitle();
  const { slug = '' } = useParams();
  const navigate = useNavigate();
  const client = useQueryClient();
  const [filters, setFilters] = useState<{
    category_id: string | null;
    skill_id: string | null;
    max_rate: number | string;
    min_experience_months: number | string;
  }>({
    category_id: null,
    skill_id: null,
    max_rate: '',
    min_experience_months: '',
  });
  const [selected, setSelected] = useState<number[]>([]);
  const categories = useApiQuery('skill-categories');
  const skills = useApiQuery('get-skills', { category_id: filters.category_id }, { enabled: !!filters.category_id });
  const body = Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== null && v !== ''));
  const { list, query } = usePagedQuery('get-trainer-list', body, { per_page: 12 });
  const training = useApiQuery('get-training-details', { slug });
  const api = useApiForm<CallValues, 'create-take-call'>({
    path: 'create-take-call',
    initialValues: { title: '', start: '', end: '' },
    validate: callValidate,
    toBody: (v) => ({ title: v.title, start: toIso(v.start), end: toIso(v.end), slug, trainer_ids: selected }),
    guard: () => (selected.length ? null : 'Select at least one trainer.'),
    onSuccess: async (data) => {
      notifications.show({ color: 'green', message: data.message });
      await client.invalidateQueries({ queryKey: ['show-take-call'] });
      navigate('/take-calls');
    },
  });
  const toggle = (id: number) => setSelected((s) => (s.includes(id) ? s.filter((x) => x !== id) : [...s, id]));
  return (
    <Stack gap="md">
      <PageHeader
        title={title}
        description={training.data ? `For the training ${training.data.success.name}` : undefined}
      />
      <Card withBorder component="section" aria-label="Search trainers">
        <SimpleGrid cols={{ base: 1, sm: 2, md: 5 }}>
          <TextInput
            label="Search"
            placeholder="Name or skill"
            defaultValue={list.search}
            onChange={(e) => list.setSearch(e.currentTarget.value)}
          />
          <Select
            label="Category"
            clearable
            data={(categories.data?.list ?? []).map((c) => ({ value: String(c.id), label: c.name }))}
            value={filters.category_id}
            onChange={(v) => setFilters((f) => ({ ...f, category_id: v, skill_id: null }))}
          />
          <Select
            label="Skill"
            clearable
            disabled={!filters.category_id}
            data={(skills.data?.list ?? []).map((s) => ({ value: String(s.id), label: s.name }))}
            value={filters.skill_id}
            onChange={(v) => setFilters((f) => ({ ...f, skill_id: v }))}
          />
          <NumberInput
            label="Highest rate ($/h)"
            description={RATE_CURRENCY_NOTE}
            min={1}
            value={filters.max_rate}
            onChange={(v) => setFilters((f) => ({ ...f, max_rate: v }))}
          />
          <NumberInput
            label="Least experience (months)"
            min={0}
            value={filters.min_experience_months}
            onChange={(v) => setFilters((f) => ({ ...f, min_experience_months: v }))}
          />
        </SimpleGrid>
      </Card>
      {query.isLoading ? <LoadingLines /> : null}
      <ErrorAlert message={query.error ? errorText(query.error) : null} />
      {query.data && !query.data.list.length ? (
        <EmptyState
          hint={
            Object.keys(body).some((k) => k !== 'page' && k !== 'per_page')
              ? 'No approved trainer has a skill that matches these filters. Trainers list their skills, rates and experience on their own profile; widen the filters or choose another category.'
              : 'No approved trainer has listed a skill yet. Trainers add their skills, rates and experience on their own profile.'
          }
        />
      ) : null}
      <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} role="list" aria-label="Trainers">
        {(query.data?.list ?? []).map((t) => (
          <Card
            key={t.id}
            withBorder
            role="listitem"
            bg={selected.includes(t.id) ? 'var(--mantine-color-blue-light)' : undefined}
          >
            <Checkbox
              label={`${t.first_name} ${t.last_name}`}
              checked={selected.includes(t.id)}
              onChange={() => toggle(t.id)}
              fw={600}
            />
            <Text size="sm" c="dimmed" mt={4}>
              {t.base_location ?? 'Location not given'} · from {formatUsd(t.rate_per_hours)}/h ·{' '}
              {Math.round(t.experience / 12)} yr
            </Text>
            <Group gap={4} mt="xs">
              {t.skills.map((s) => (
                <Badge key={s.sname} variant="light">
                  {s.sname} · {s.experience} {s.type} · {formatUsd(s.rate_per_hours)}/h
                </Badge>
              ))}
            </Group>
          </Card>
        ))}
      </SimpleGrid>
      {query.data && query.data.total > query.data.list.length ? (
        <Group justify="center">
          <Button variant="default" disabled={list.page <= 1} onClick={() => list.setPage(list.page - 1)}>
            Previous
          </Button>
          <Text size="sm">
            Page {list.page} of {Math.ceil(query.data.total / query.data.per_page)}
          </Text>
          <Button
            variant="default"
            disabled={list.page * query.data.per_page >= query.data.total}
            onClick={() => list.setPage(list.page + 1)}
          >
            Next
          </Button>
        </Group>
      ) : null}
      <Card withBorder component="section" aria-labelledby="create-call">
        <form onSubmit={api.onSubmit} noValidate aria-labelledby="create-call">
          <Stack gap="sm">
            <Title order={2} size="h4" id="create-call">
              Create take call ({selected.length} selected)
            </Title>
            <ErrorAlert message={api.otherError} />
            <SimpleGrid cols={{ base: 1, md: 3 }}>
              <CallFields form={api.form} />
            </SimpleGrid>
            <Group justify="flex-end">
              <Button type="submit" loading={api.submitting} disabled={!selected.length}>
                Create Take Call
              </Button>
            </Group>
          </Stack>
        </form>
      </Card>
    </Stack>
  );
}

function RescheduleModal({ call, onClose }: { call: TakeCall; onClose: () => void }) {
  const client = useQueryClient();
  const api = useApiForm<CallValues, 'reschedule-take-call'>({
    path: 'reschedule-take-call',
    initialValues: { title: call.title, start: toLocal(call.start), end: toLocal(call.end) },
    validate: callValidate,
    toBody: (v) => ({ id: call.id, title: v.title, start: toIso(v.start), end: toIso(v.end) }),
    onSuccess: async (data) => {
      notifications.show({ color: 'green', message: data.message });
      await client.invalidateQueries({ queryKey: ['show-take-call'] });
      onClose();
    },
  });
  return (
    <Modal opened onClose={onClose} title="Reschedule take call">
      <form onSubmit={api.onSubmit} noValidate aria-label="Reschedule take call">
        <Stack gap="sm">
          <ErrorAlert message={api.otherError} />
          <CallFields form={api.form} />
          <Button type="submit" loading={api.submitting}>
            Submit
          </Button>
        </Stack>
      </form>
    </Modal>
  );
}

/** /take-calls: Sr.No, Training, Title, Start Time, End Time, Status; start the meeting, view trainers, reschedule. */
export function TakeCallListPage() {
  const title = useRouteTitle();
  const navigate = useNavigate();
  const { list, query } = usePagedQuery('show-take-call');
  const trainings = useApiQuery('all-trainings', { per_page: 100 });
  const [moving, setMoving] = useState<TakeCall | null>(null);
  return (
    <Stack gap="md">
      <PageHeader
        title={title}
        description="A take call is a short call with trainers you are considering for a training: choose the training below to pick trainers and propose a time; they answer Available, Reschedule or Not Interested, and you assign the ones you want."
        actions={
          <Select
            label="New take call for a training"
            placeholder="Choose a training…"
            searchable
            data={(trainings.data?.list ?? []).map((t) => ({ value: t.slug, label: t.name }))}
            onChange={(slug) => slug && navigate(`/trainer/take/call/${encodeURIComponent(slug)}`)}
          />
        }
      />
      <DataTable
        label="Take calls"
        serial
        records={query.data?.list}
        loading={query.isLoading}
        error={query.error}
        paged={{ list, total: query.data?.total, capped: query.data?.total_capped, searchable: true }}
        columns={[
          { accessor: 'name', title: 'Training', sortable: true },
          { accessor: 'title', title: 'Title', sortable: true },
          { accessor: 'start', title: 'Start Time', sortable: true, render: (c) => formatDateTime(c.start) },
          { accessor: 'end', title: 'End Time', sortable: true, render: (c) => formatDateTime(c.end) },
          {
            accessor: 'status',
            title: 'Status',
            render: (c) => (
              <Badge color={c.status ? 'gray' : 'blue'} variant="light">
                {c.status ? 'Completed' : 'Scheduled'} · {c.answered}/{c.trainers} answered
              </Badge>
            ),
          },
          {
            accessor: 'actions',
            title: 'Action',
            textAlign: 'right',
            render: (c) => (
              <Group gap="xs" justify="flex-end" wrap="nowrap">
                {c.status === 0 ? (
                  <RowLink to={`/take-call-meeting/${c.id}`} label={`Start the meeting of ${c.title}`}>
                    Start
                  </RowLink>
                ) : null}
                <RowLink to={`/take-call-trainers/${encodeId(c.id)}`} label={`Trainers of ${c.title}`}>
                  View Trainers
                </RowLink>
                <Button
                  size="xs"
                  variant="light"
                  color="gray"
                  onClick={() => setMoving(c)}
                  aria-label={`Reschedule ${c.title}`}
                >
                  Reschedule
                </Button>
              </Group>
            ),
          },
        ]}
      />
      {moving ? <RescheduleModal call={moving} onClose={() => setMoving(null)} /> : null}
    </Stack>
  );
}

/** /take-call-trainers/:id (base64): each trainer's answer; Assign Trainers once some are selected. */
export function TakeCallTrainersPage() {
  const title = useRouteTitle();
  const id = decodeId(useParams().id) ?? 0;
  const navigate = useNavigate();
  const client = useQueryClient();
  const { list, query } = usePagedQuery('show-take-call-details', { id }, { enabled: id > 0 });
  const data = query.data;
  const [selected, setSelected] = useState<number[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const assign = async () => {
    setBusy(true);
    setError(null);
    try {
      const res = await apiPost('assign-trainer-to-training', {
        take_call_id: id,
        trainer_ids: selected,
      });
      notifications.show({ color: 'green', message: res.message });
      await client.invalidateQueries({ queryKey: ['show-take-call-details'] });
      navigate('/take-calls');
    } catch (e) {
      const m = toFormErrors(e);
      setError(Object.values(m.fields)[0] ?? m.other_error ?? errorText(e));
    } finally {
      setBusy(false);
    }
  };
  const toggle = (tid: number) => setSelected((s) => (s.includes(tid) ? s.filter((x) => x !== tid) : [...s, tid]));
  return (
    <Stack gap="md">
      <PageHeader
        title={title}
        description={data?.take_call ? `${data.take_call.title} · ${data.take_call.name}` : undefined}
        actions={
          selected.length ? (
            <Button onClick={assign} loading={busy}>
              Assign Trainers
            </Button>
          ) : null
        }
      />
      <ErrorAlert message={id ? error : 'Not Found'} />
      <DataTable
        label="Trainers of the take call"
        idAccessor="trainer_id"
        records={data?.list}
        loading={query.isLoading}
        error={query.error}
        paged={{ list, total: data?.total, capped: data?.total_capped }}
        columns={[
          {
            accessor: 'select',
            title: 'Select Trainer',
            render: (r) =>
              r.is_assing ? (
                <Badge color="green">Assigned</Badge>
              ) : (
                <Checkbox
                  aria-label={`Select ${r.first_name} ${r.last_name}`}
                  checked={selected.includes(r.trainer_id)}
                  onChange={() => toggle(r.trainer_id)}
                />
              ),
          },
          { accessor: 'first_name', title: 'Trainer', sortable: true, render: (r) => `${r.first_name} ${r.last_name}` },
          { accessor: 'propose_date1', title: 'Propose Date 1', render: (r) => formatDateTime(r.propose_date1) },
          { accessor: 'propose_date2', title: 'Propose Date 2', render: (r) => formatDateTime(r.propose_date2) },
          { accessor: 'propose_date3', title: 'Propose Date 3', render: (r) => formatDateTime(r.propose_date3) },
          {
            accessor: 'status',
            title: 'Available Status',
            sortable: true,
            render: (r) =>
              r.status === 3 ? 'Not Interested' : (TAKE_CALL_TRAINER_STATUS_LABELS[r.status] ?? 'Schedule'),
          },
          { accessor: 'remark', title: 'Remark', render: (r) => r.remark ?? '—' },
          {
            accessor: 'actions',
            title: 'Action',
            textAlign: 'right',
            render: (r) => (
              <RowLink
                to={`/trainer/requirement/confirm/${r.trainer_id}/${id}`}
                label={`Requirements of ${r.first_name} ${r.last_name}`}
                secondary
              >
                Requirements {r.requirements_confirmed}/{r.requirements_total}
              </RowLink>
            ),
          },
        ]}
      />
    </Stack>
  );
}

/** /trainer/requirement/confirm/:trainer_id/:take_call_id: the trainer's confirmed requirements, read-only. */
export function TrainerRequirementStatusPage() {
  const title = useRouteTitle();
  const { trainer_id, take_call_id } = useParams();
  const q = useApiQuery('get-training-trainers-requirement-status', {
    trainer_id: Number(trainer_id),
    take_call_id: Number(take_call_id),
  });
  return (
    <Stack gap="md">
      <PageHeader
        title={title}
        description={q.data ? `${q.data.trainer.first_name} ${q.data.trainer.last_name} · ${q.data.title}` : undefined}
      />
      {q.isLoading ? <LoadingLines /> : null}
      <ErrorAlert message={q.error ? errorText(q.error) : null} />
      {q.data && !q.data.list.length ? <EmptyState /> : null}
      {q.data?.list.length ? (
        <List spacing="sm" aria-label="Requirements">
          {q.data.list.map((r) => (
            <List.Item
              key={r.trId}
              icon={
                <ThemeIcon size="sm" radius="xl" color={r.status === 1 ? 'green' : 'gray'} aria-hidden>
                  {r.status === 1 ? <IconCheck size={12} /> : <IconX size={12} />}
                </ThemeIcon>
              }
            >
              {r.requirement} — {r.status === 1 ? 'Confirmed' : 'Not confirmed'}
            </List.Item>
          ))}
        </List>
      ) : null}
    </Stack>
  );
}
