import { Badge, Button, Checkbox, Group, Modal, Paper, Select, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { TAKE_CALL_ANSWER_OPTIONS, TRAINER_TAKE_CALL_STATUS_LABELS, type trainerTakeCallRow } from '@trainlab/contract';
import dayjs from 'dayjs';
import { useEffect, useRef, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import type { z } from 'zod';
import { apiPost, errorText, toFormErrors } from '../../api/client';
import { useApiQuery } from '../../api/use-api';
import { useApiForm } from '../../api/use-api-form';
import { usePagedQuery } from '../../api/use-paged-query';
import { useRouteTitle } from '../../app/route-title';
import { BackLink } from '../../ui/BackLink';
import { DataTable } from '../../ui/DataTable';
import { EmptyState } from '../../ui/EmptyState';
import { ErrorAlert } from '../../ui/ErrorAlert';
import { LoadingLines } from '../../ui/Loading';
import { PageHeader } from '../../ui/PageHeader';
import { RowLink } from '../../ui/RowLink';
import { formatDateTime } from '../learner/format';

type Row = z.infer<typeof trainerTakeCallRow>;
const localNow = () => dayjs().format('YYYY-MM-DDTHH:mm');
const toIso = (v: string) => (v ? dayjs(v).toISOString() : '');
const toLocal = (iso: string | null) => (iso ? dayjs(iso).format('YYYY-MM-DDTHH:mm') : '');
const STATUS_COLORS: Record<number, string> = { 0: 'gray', 1: 'green', 2: 'yellow', 3: 'red' };

interface AnswerValues extends Record<string, unknown> {
  status: string | null;
  propose_date1: string;
  propose_date2: string;
  propose_date3: string;
  remark: string;
}

/** The Confirm Take Call modal: up to three future dates; Reschedule proposes at least the first. */
function ConfirmTakeCallModal({ row, onClose }: { row: Row; onClose: () => void }) {
  const client = useQueryClient();
  const needsDate = (v: AnswerValues, n: 1 | 2 | 3) => v.status === '2' && n === 1;
  const dateRule = (n: 1 | 2 | 3) => (v: string, values: AnswerValues) =>
    needsDate(values, n) && !v
      ? `The propose date${n} field is required.`
      : v && dayjs(v).isBefore(dayjs().subtract(1, 'minute'))
        ? `The propose date${n} must be a date after or equal to now.`
        : null;
  const api = useApiForm<AnswerValues, 'reschedule-trainer-take-call'>({
    path: 'reschedule-trainer-take-call',
    initialValues: {
      status: row.status ? String(row.status) : null,
      propose_date1: toLocal(row.propose_date1),
      propose_date2: toLocal(row.propose_date2),
      propose_date3: toLocal(row.propose_date3),
      remark: row.remark ?? '',
    },
    validate: {
      status: (v) => (v ? null : 'The status field is required.'),
      propose_date1: dateRule(1),
      propose_date2: dateRule(2),
      propose_date3: dateRule(3),
    },
    toBody: (v) => ({
      id: row.take_call_detail_id,
      title: row.title,
      status: Number(v.status),
      remark: v.remark,
      propose_date1: toIso(v.propose_date1),
      propose_date2: toIso(v.propose_date2),
      propose_date3: toIso(v.propose_date3),
    }),
    onSuccess: async (data) => {
      notifications.show({ color: 'green', message: data.message });
      await client.invalidateQueries({ queryKey: ['trainer-take-calls'] });
      onClose();
    },
  });
  const { form } = api;
  return (
    <Modal opened onClose={onClose} title="Confirm Take Call">
      <form onSubmit={api.onSubmit} noValidate aria-label="Confirm Take Call">
        <Stack gap="sm">
          <ErrorAlert message={api.otherError} />
          <Select
            label="Select Status"
            withAsterisk
            data={TAKE_CALL_ANSWER_OPTIONS.map((o) => ({ value: String(o.value), label: o.label }))}
            {...form.getInputProps('status')}
          />
          <TextInput label="Call Title" value={row.title} readOnly />
          <Text size="sm" c="dimmed">
            Available: you can take the call at its time ({formatDateTime(row.start)}); dates are optional. Reschedule:
            propose up to three other times, the first at least.
          </Text>
          {([1, 2, 3] as const).map((n) => (
            <TextInput
              key={n}
              label={`Propose Date ${n}`}
              type="datetime-local"
              min={localNow()}
              withAsterisk={needsDate(form.values, n)}
              {...form.getInputProps(`propose_date${n}`)}
            />
          ))}
          <Textarea label="Remark" autosize minRows={2} {...form.getInputProps('remark')} />
          <Button type="submit" loading={api.submitting}>
            Submit
          </Button>
        </Stack>
      </form>
    </Modal>
  );
}

/** /trainer-take-calls: every take call sent to the trainer with its status; answer and requirements. */
export function TrainerTakeCallsPage() {
  const title = useRouteTitle();
  const { list, query } = usePagedQuery('trainer-take-calls');
  const [answering, setAnswering] = useState<Row | null>(null);
  return (
    <Stack gap="md">
      <PageHeader title={title} />
      <DataTable
        label="Take calls"
        // the Confirm button stays in view at a laptop's width (issue 41: it was off-screen at 1280 px)
        pinLastColumn
        serial
        idAccessor="take_call_detail_id"
        records={query.data?.list}
        loading={query.isLoading}
        error={query.error}
        paged={{ list, total: query.data?.total, capped: query.data?.total_capped, searchable: true }}
        columns={[
          { accessor: 'learning_provider', title: 'Learning Provider' },
          { accessor: 'name', title: 'Training Name', sortable: true },
          { accessor: 'title', title: 'Title', sortable: true },
          { accessor: 'start', title: 'Start Time', sortable: true, render: (r) => formatDateTime(r.start) },
          { accessor: 'end', title: 'End Time', render: (r) => formatDateTime(r.end) },
          {
            accessor: 'status',
            title: 'Status',
            sortable: true,
            render: (r) => (
              <Group gap={4}>
                <Badge color={STATUS_COLORS[r.status] ?? 'gray'} variant="light">
                  {TRAINER_TAKE_CALL_STATUS_LABELS[r.status] ?? 'Not Intrested'}
                </Badge>
                {r.is_assing ? <Badge color="green">Assigned</Badge> : null}
              </Group>
            ),
          },
          {
            accessor: 'actions',
            title: 'Action',
            textAlign: 'right',
            render: (r) => (
              <Group gap="xs" justify="flex-end" wrap="nowrap">
                <RowLink to={`/take-call-meeting/${r.take_call_id}`} label={`Start the meeting of ${r.title}`}>
                  Start
                </RowLink>
                <RowLink
                  to={`/confirm-training-requirement/${r.take_call_id}`}
                  label={`Requirements of ${r.title}`}
                  secondary
                >
                  Requirements
                </RowLink>
                <Button size="xs" variant="light" onClick={() => setAnswering(r)} aria-label={`Confirm ${r.title}`}>
                  Confirm
                </Button>
              </Group>
            ),
          },
        ]}
      />
      {answering ? <ConfirmTakeCallModal row={answering} onClose={() => setAnswering(null)} /> : null}
    </Stack>
  );
}

/**
 * /confirm-training-requirement/:id: the checklist; Confirm Requirement once any is selected. Each
 * tick is saved as it is made (with the take call's id, so unticking the last one saves too), so a
 * reload keeps it and the manager sees the progress before the trainer confirms.
 */
export function ConfirmRequirementPage() {
  const title = useRouteTitle();
  const takeCallId = Number(useParams().id);
  const navigate = useNavigate();
  const client = useQueryClient();
  const q = useApiQuery('get-training-requirements', { take_call_id: takeCallId });
  const [selected, setSelected] = useState<number[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // What the server holds, to fall back to when a save is refused.
  const saved = useRef<number[]>([]);
  // Saves run one after another, so the last tick made is the last one stored.
  const queue = useRef<Promise<void>>(Promise.resolve());
  useEffect(() => {
    if (!q.data) return;
    const ticked = q.data.list.filter((r) => r.status === 1).map((r) => r.trId);
    saved.current = ticked;
    setSelected(ticked);
  }, [q.data]);
  const saveTicks = (next: number[]) => {
    setSelected(next);
    setError(null);
    queue.current = queue.current.then(async () => {
      try {
        await apiPost('update-training-requirement', { take_call_id: takeCallId, ids: next });
        saved.current = next;
        // Refetch on the next visit, not now: a refetch would overwrite ticks still being saved.
        await client.invalidateQueries({ queryKey: ['get-training-requirements'], refetchType: 'none' });
      } catch (e) {
        const m = toFormErrors(e);
        setError(m.fields.ids ?? m.fields.take_call_id ?? m.other_error ?? errorText(e));
        setSelected(saved.current);
      }
    });
  };
  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      const res = await apiPost('update-training-requirement', { ids: selected });
      notifications.show({ color: 'green', message: res.message });
      await client.invalidateQueries({ queryKey: ['get-training-requirements'] });
      navigate('/trainer-take-calls');
    } catch (e) {
      const m = toFormErrors(e);
      setError(m.fields.ids ?? m.other_error ?? errorText(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack gap="md">
      <BackLink to="/trainer-take-calls">Back to take calls</BackLink>
      <PageHeader
        title={title}
        description={q.data?.take_call ? `${q.data.take_call.title} · ${q.data.take_call.name}` : undefined}
      />
      <Text size="sm" c="dimmed" maw={720}>
        Tick each requirement of the training you can meet: every tick is saved as you make it, and the provider sees
        them. When you are done, Confirm Requirement tells the provider and takes you back to your take calls.
      </Text>
      {q.isLoading ? <LoadingLines /> : null}
      <ErrorAlert message={q.error ? errorText(q.error) : error} />
      {q.data && !q.data.list.length ? <EmptyState /> : null}
      {q.data?.list.length ? (
        <Paper withBorder p="lg">
          <Checkbox.Group
            label="Requirements of the training"
            value={selected.map(String)}
            onChange={(v) => saveTicks(v.map(Number))}
          >
            <Stack gap="xs" mt="xs">
              {q.data.list.map((r) => (
                <Checkbox key={r.trId} value={String(r.trId)} label={r.requirement} />
              ))}
            </Stack>
          </Checkbox.Group>
          {selected.length ? (
            <Button mt="md" onClick={confirm} loading={busy}>
              Confirm Requirement
            </Button>
          ) : null}
        </Paper>
      ) : null}
    </Stack>
  );
}
