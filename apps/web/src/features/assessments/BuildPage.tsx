import {
  Alert,
  Button,
  Checkbox,
  Group,
  NumberInput,
  Paper,
  SegmentedControl,
  Select,
  Stack,
  Tabs,
  Text,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { QUESTION_LEVELS } from '@trainlab/contract';
import { lazy, Suspense, useState } from 'react';
import { useParams } from 'react-router';
import { apiPost, errorText, toFormErrors } from '../../api/client';
import { useApiQuery } from '../../api/use-api';
import { useRouteTitle } from '../../app/route-title';
import { BackLink } from '../../ui/BackLink';
import { EmptyState } from '../../ui/EmptyState';
import { ErrorAlert } from '../../ui/ErrorAlert';
import { LoadingLines } from '../../ui/Loading';
import { PageHeader } from '../../ui/PageHeader';
import type { Question } from './types';

const ResultsPanel = lazy(() => import('./ResultsPanel'));

interface Definition {
  mode: string;
  minute: number;
  total_questions: number;
  attempts: number;
}

function useSave(slug: string) {
  const client = useQueryClient();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [other, setOther] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const save = async (path: string, body: Record<string, unknown>) => {
    setErrors({});
    setOther(null);
    setBusy(true);
    try {
      const res = await apiPost<{ message: string; total_questions: number }>(path, { ...body, slug });
      notifications.show({ color: 'green', message: `${res.message} (${res.total_questions} questions)` });
      await client.invalidateQueries({ queryKey: ['get-assessment-questions'] });
    } catch (e) {
      const mapped = toFormErrors(e);
      setErrors(mapped.fields);
      setOther(mapped.other_error ?? (Object.keys(mapped.fields).length ? null : errorText(e)));
    } finally {
      setBusy(false);
    }
  };
  return { save, errors, other, busy };
}

function RandomTab({ type, slug }: { type: number; slug: string }) {
  const [language, setLanguage] = useState<string | null>(null);
  const [level, setLevel] = useState<string | null>(null);
  const [picked, setPicked] = useState<number[]>([]);
  const [minute, setMinute] = useState<number | string>(30);
  const [show, setShow] = useState(false);
  const languages = useApiQuery<{ list: string[] }>('get-language-identified');
  const bank = useApiQuery<{ list: Question[]; total: number }>('get-question-bank', {
    per_page: 100,
    ...(language ? { language_identified: language } : {}),
    ...(level ? { level } : {}),
  });
  const { save, errors, other, busy } = useSave(slug);
  return (
    <Stack gap="sm">
      <ErrorAlert message={other} />
      <Group grow align="flex-start">
        <Select
          label="Language"
          placeholder="All languages"
          clearable
          data={languages.data?.list ?? []}
          value={language}
          onChange={setLanguage}
        />
        <Select
          label="Level"
          placeholder="All levels"
          clearable
          data={[...QUESTION_LEVELS]}
          value={level}
          onChange={setLevel}
        />
        <NumberInput
          label="Time (minutes)"
          withAsterisk
          min={1}
          max={300}
          allowDecimal={false}
          value={minute}
          onChange={setMinute}
          error={errors.minute}
        />
      </Group>
      <Checkbox.Group
        label={`Questions (${picked.length} selected)`}
        error={errors.question_ids}
        value={picked.map(String)}
        onChange={(v) => setPicked(v.map(Number))}
      >
        {bank.isLoading ? <LoadingLines /> : null}
        {bank.error ? <ErrorAlert message={errorText(bank.error)} /> : null}
        {bank.data && bank.data.list.length === 0 ? <EmptyState hint="Add questions to the bank first." /> : null}
        <Stack gap={6} mt="xs">
          {bank.data?.list.map((q) => (
            <Checkbox key={q.id} value={String(q.id)} label={`${q.question} (${q.language_identified}, ${q.level})`} />
          ))}
        </Stack>
      </Checkbox.Group>
      <Checkbox
        label="Show learners which answers were right after they submit"
        checked={show}
        onChange={(e) => setShow(e.currentTarget.checked)}
      />
      <Group justify="flex-end">
        <Button
          loading={busy}
          onClick={() =>
            void save('add-random-questions', { type, minute, question_ids: picked, show_answers: show ? 1 : 0 })
          }
        >
          Save Random Test
        </Button>
      </Group>
    </Stack>
  );
}

function AutomaticTab({ type, slug }: { type: number; slug: string }) {
  const languages = useApiQuery<{ list: string[] }>('get-language-identified');
  const [language, setLanguage] = useState<string | null>(null);
  const [counts, setCounts] = useState<Record<string, number | string>>({
    beginner_question: 0,
    intermediate_question: 0,
    advanced_question: 0,
  });
  const [minute, setMinute] = useState<number | string>(30);
  const [show, setShow] = useState(false);
  const { save, errors, other, busy } = useSave(slug);
  return (
    <Stack gap="sm">
      <ErrorAlert message={other} />
      <Text size="sm" c="dimmed">
        Each learner gets their own random questions, in their own order, drawn from the bank.
      </Text>
      <Select
        label="Language"
        withAsterisk
        data={languages.data?.list ?? []}
        value={language}
        onChange={setLanguage}
        error={errors.languge_identified}
      />
      <Group grow align="flex-start">
        {(
          [
            ['beginner_question', 'Beginner questions'],
            ['intermediate_question', 'Intermediate questions'],
            ['advanced_question', 'Advanced questions'],
          ] as const
        ).map(([key, label]) => (
          <NumberInput
            key={key}
            label={label}
            min={0}
            max={200}
            allowDecimal={false}
            value={counts[key]}
            onChange={(v) => setCounts((c) => ({ ...c, [key]: v }))}
            error={errors[key]}
          />
        ))}
      </Group>
      <NumberInput
        label="Time (minutes)"
        min={1}
        max={300}
        allowDecimal={false}
        value={minute}
        onChange={setMinute}
        error={errors.minute}
      />
      <Checkbox
        label="Show learners which answers were right after they submit"
        checked={show}
        onChange={(e) => setShow(e.currentTarget.checked)}
      />
      <Group justify="flex-end">
        <Button
          loading={busy}
          onClick={() =>
            void save('add-automatic-questions', {
              type,
              languge_identified: language ?? '',
              minute,
              ...counts,
              show_answers: show ? 1 : 0,
            })
          }
        >
          Save Automatic Test
        </Button>
      </Group>
    </Stack>
  );
}

function CurrentTest({ trainingId, type }: { trainingId: number; type: number }) {
  const q = useApiQuery<{ success: Definition | null }>('get-assessment-questions', { type, training_id: trainingId });
  if (q.isLoading) return <LoadingLines lines={1} />;
  if (q.error) return <ErrorAlert message={errorText(q.error)} />;
  const d = q.data?.success;
  if (!d) return <Alert color="gray">No {type === 1 ? 'pre' : 'post'}-assessment has been built yet.</Alert>;
  return (
    <Alert color="blue">
      Current {type === 1 ? 'pre' : 'post'}-assessment:{' '}
      {d.mode === 'automatic' ? 'drawn automatically' : 'picked by hand'}, {d.total_questions} questions, {d.minute}{' '}
      minutes, {d.attempts} attempt(s) so far.
    </Alert>
  );
}

/** /assessment/add/{slug}: Add Questions In Assessment (tabs Random and Automatic) and the results. */
export function AddAssessmentPage() {
  const title = useRouteTitle();
  const { slug = '' } = useParams();
  const [type, setType] = useState('1');
  const details = useApiQuery<{ success: { id: number; name: string } }>('get-training-details', { slug });
  const training = { data: details.data?.success, error: details.error };
  return (
    <Stack gap="md">
      <BackLink to="/all-trainings">Back to trainings</BackLink>
      <PageHeader title={title} description={training.data ? training.data.name : undefined} />
      {training.error ? <ErrorAlert message={errorText(training.error)} /> : null}
      <SegmentedControl
        aria-label="Test"
        value={type}
        onChange={setType}
        data={[
          { value: '1', label: 'Pre-assessment' },
          { value: '2', label: 'Post-assessment' },
        ]}
      />
      {training.data ? <CurrentTest trainingId={training.data.id} type={Number(type)} /> : null}
      <Paper withBorder p="md">
        <Tabs defaultValue="random" keepMounted={false}>
          <Tabs.List>
            <Tabs.Tab value="random">Random</Tabs.Tab>
            <Tabs.Tab value="automatic">Automatic</Tabs.Tab>
            <Tabs.Tab value="results">Results</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="random" pt="md">
            <RandomTab key={type} type={Number(type)} slug={slug} />
          </Tabs.Panel>
          <Tabs.Panel value="automatic" pt="md">
            <AutomaticTab key={type} type={Number(type)} slug={slug} />
          </Tabs.Panel>
          <Tabs.Panel value="results" pt="md">
            <Suspense fallback={<LoadingLines />}>
              <ResultsPanel slug={slug} />
            </Suspense>
          </Tabs.Panel>
        </Tabs>
      </Paper>
    </Stack>
  );
}
