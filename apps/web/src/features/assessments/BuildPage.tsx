import {
  Alert,
  Anchor,
  Button,
  Checkbox,
  Group,
  NumberInput,
  Paper,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Tabs,
  Text,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { QUESTION_LEVELS } from '@trainlab/contract';
import { lazy, Suspense, useState } from 'react';
import { Link, useParams } from 'react-router';
import type { ApiAnswer, ApiRequest, SendCall } from '../../api/call-types';
import { apiPost, errorText, splitFormErrors } from '../../api/client';
import { useApiQuery } from '../../api/use-api';
import { useRouteTitle } from '../../app/route-title';
import { BackLink } from '../../ui/BackLink';
import { EmptyState } from '../../ui/EmptyState';
import { ErrorAlert } from '../../ui/ErrorAlert';
import { LoadingLines } from '../../ui/Loading';
import { PageHeader } from '../../ui/PageHeader';

const ResultsPanel = lazy(() => import('./ResultsPanel'));

/** The two ways of building a test; both take the training's slug beside their own fields. */
type BuildPath = 'add-random-questions' | 'add-automatic-questions';

/**
 * Saves a test. Every refused save shows: a message under the field that shows it (`shown`), all
 * others (the training's own refusal on `type`, `slug`, anything unexpected) in the red alert on top.
 */
function useSave(slug: string, shown: readonly string[]) {
  const client = useQueryClient();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [other, setOther] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const save = async <P extends BuildPath>(path: P, body: Omit<ApiRequest<P>, 'slug'>) => {
    setErrors({});
    setOther(null);
    setBusy(true);
    try {
      // save's signature has checked the body against the call
      const res = (await (apiPost as SendCall)(path, { ...body, slug })) as ApiAnswer<BuildPath>;
      notifications.show({ color: 'green', message: `${res.message} (${res.total_questions} questions)` });
      await client.invalidateQueries({ queryKey: ['get-assessment-questions'] });
    } catch (e) {
      const { fields, top } = splitFormErrors(e, (field) => shown.includes(field));
      setErrors(fields);
      setOther(top ?? (Object.keys(fields).length ? null : errorText(e)));
    } finally {
      setBusy(false);
    }
  };
  return { save, errors, other, busy };
}

const RANDOM_FIELDS = ['minute', 'question_ids'] as const;
const AUTOMATIC_FIELDS = [
  'languge_identified',
  'beginner_question',
  'intermediate_question',
  'advanced_question',
  'minute',
] as const;

const kindOf = (type: number) => (type === 1 ? 'pre' : 'post');

function RandomTab({ type, slug }: { type: number; slug: string }) {
  const [language, setLanguage] = useState<string | null>(null);
  const [level, setLevel] = useState<string | null>(null);
  const [picked, setPicked] = useState<number[]>([]);
  const [minute, setMinute] = useState<number | string>(30);
  const [show, setShow] = useState(false);
  const languages = useApiQuery('get-language-identified');
  const bank = useApiQuery('get-question-bank', {
    per_page: 100,
    ...(language ? { language_identified: language } : {}),
    ...(level ? { level } : {}),
  });
  const { save, errors, other, busy } = useSave(slug, RANDOM_FIELDS);
  return (
    <Stack gap="sm">
      <ErrorAlert message={other} />
      <Text size="sm" c="dimmed">
        Pick questions: you choose the questions by hand below, and every learner gets the same questions.
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
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
      </SimpleGrid>
      <Checkbox.Group
        label={`Pick questions (${picked.length} selected)`}
        error={errors.question_ids}
        value={picked.map(String)}
        onChange={(v) => setPicked(v.map(Number))}
      >
        {bank.isLoading ? <LoadingLines /> : null}
        {bank.error ? <ErrorAlert message={errorText(bank.error)} /> : null}
        {bank.data && bank.data.list.length === 0 ? (
          <EmptyState
            hint={
              <>
                Add questions to the bank first.{' '}
                <Anchor component={Link} to="/question-bank/add">
                  Open the question bank
                </Anchor>{' '}
                to upload them, then come back here.
              </>
            }
          />
        ) : null}
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
      <Group justify="flex-end" align="center">
        <Text size="sm" c="dimmed" style={{ flex: '1 1 14rem' }}>
          Saves the questions you picked as the {kindOf(type)}-assessment, in place of the current one.
        </Text>
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
  const languages = useApiQuery('get-language-identified');
  const [language, setLanguage] = useState<string | null>(null);
  const [counts, setCounts] = useState<
    Record<'beginner_question' | 'intermediate_question' | 'advanced_question', number | string>
  >({
    beginner_question: 0,
    intermediate_question: 0,
    advanced_question: 0,
  });
  const [minute, setMinute] = useState<number | string>(30);
  const [show, setShow] = useState(false);
  const { save, errors, other, busy } = useSave(slug, AUTOMATIC_FIELDS);
  return (
    <Stack gap="sm">
      <ErrorAlert message={other} />
      <Text size="sm" c="dimmed">
        Drawn per learner: say how many questions of each level; each learner gets their own questions, in their own
        order, drawn from the bank when they start.
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
      <Group justify="flex-end" align="center">
        <Text size="sm" c="dimmed" style={{ flex: '1 1 14rem' }}>
          Saves these counts as the {kindOf(type)}-assessment, in place of the current one.
        </Text>
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
  const q = useApiQuery('get-assessment-questions', { type, training_id: trainingId });
  if (q.isLoading) return <LoadingLines lines={1} />;
  if (q.error) return <ErrorAlert message={errorText(q.error)} />;
  const d = q.data?.success;
  if (!d)
    return (
      <Alert color="gray" role="status">
        No {type === 1 ? 'pre' : 'post'}-assessment has been built yet.
      </Alert>
    );
  return (
    <Alert color="blue" role="status">
      Current {type === 1 ? 'pre' : 'post'}-assessment:{' '}
      {d.mode === 'automatic' ? 'drawn per learner' : 'picked by hand'}, {d.total_questions} questions, {d.minute}{' '}
      minutes, {d.attempts} attempt(s) so far.
    </Alert>
  );
}

type TrainingInfo = ApiAnswer<'get-training-details'>['success'];

/** A training created without this test: say so, and let the manager switch it on here. */
function SwitchOn({ training, type }: { training: TrainingInfo; type: number }) {
  const client = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const field = type === 1 ? 'pre_assessment' : 'post_assessment';
  const kind = kindOf(type);
  const switchOn = async () => {
    setBusy(true);
    setError(null);
    try {
      const res = await apiPost('update-training', { slug: training.slug, [field]: 1 });
      notifications.show({ color: 'green', message: res.message });
      await client.invalidateQueries({ queryKey: ['get-training-details'] });
      await client.invalidateQueries({ queryKey: ['all-trainings'] });
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Alert color="yellow" role="status" title={`This training does not include a ${kind}-assessment`}>
      <Stack gap="xs" align="flex-start">
        <ErrorAlert message={error} />
        <Text size="sm">
          It was created without one, so a {kind}-assessment cannot be saved yet. Switch it on to build the test; the
          training’s cost then counts it for each participant.
        </Text>
        <Button size="sm" loading={busy} onClick={() => void switchOn()}>
          Switch on {kind}-assessment
        </Button>
      </Stack>
    </Alert>
  );
}

/** /assessment/add/{slug}: Add Questions In Assessment (tabs Random and Automatic) and the results. */
export function AddAssessmentPage() {
  const title = useRouteTitle();
  const { slug = '' } = useParams();
  const [type, setType] = useState('1');
  const details = useApiQuery('get-training-details', { slug });
  const training = { data: details.data?.success, error: details.error };
  const included = training.data
    ? Boolean(type === '1' ? training.data.pre_assessment : training.data.post_assessment)
    : true;
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
      {training.data && !included ? <SwitchOn training={training.data} type={Number(type)} /> : null}
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
