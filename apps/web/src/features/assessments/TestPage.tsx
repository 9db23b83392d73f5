import { Alert, Badge, Button, Group, Paper, Progress, Radio, Stack, Text, Title } from '@mantine/core';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ApiError, apiPost, errorText, toFormErrors } from '../../api/client';
import { useApiQuery } from '../../api/use-api';
import { useRouteTitle } from '../../app/route-title';
import { BackLink } from '../../ui/BackLink';
import { confirmAction } from '../../ui/confirm';
import { DataTable } from '../../ui/DataTable';
import { EmptyState } from '../../ui/EmptyState';
import { ErrorAlert } from '../../ui/ErrorAlert';
import { Loading, LoadingLines } from '../../ui/Loading';
import { PageHeader } from '../../ui/PageHeader';
import { type Attempt, type AttemptResult, clock, TYPE_LABEL, timeAnnouncement } from './types';

export const testPath = (slug: string, type?: number) =>
  `/assessment?slug=${encodeURIComponent(slug)}${type ? `&type=${type}` : ''}`;

/** 'You have not answered 2 of the 5 questions.' / 'You have answered all 5 questions.' */
export function submitSummary(open: number, total: number): string {
  if (open > 0) return `You have not answered ${open} of the ${total} question${total === 1 ? '' : 's'}.`;
  return total === 1 ? 'You have answered the question.' : `You have answered all ${total} questions.`;
}

/** An answer by its text; a server without the texts leaves the option's number. */
const answerText = (text: string | null | undefined, n: number) => text || `Option ${n}`;

function ResultView({ result }: { result: AttemptResult }) {
  return (
    <Stack gap="md">
      <Paper withBorder p="lg">
        <Title order={2} size="h3">
          Your score: {result.score} of {result.total} ({result.percent}%)
        </Title>
        <Text size="sm" c="dimmed">
          Submitted {new Date(result.submitted_at).toLocaleString()}.
        </Text>
      </Paper>
      {result.answers ? (
        // the shared table: its rows turn into cards on a phone instead of clipping the columns
        <DataTable
          label="Your answers"
          serial={false}
          idAccessor="question_id"
          pageSize={100}
          records={result.answers}
          columns={[
            { accessor: 'question', title: 'Question' },
            {
              accessor: 'answer',
              title: 'Your answer',
              render: (a) => (a.answer ? answerText(a.answer_text, a.answer) : 'Not answered'),
            },
            {
              accessor: 'correct_option',
              title: 'Correct answer',
              render: (a) => answerText(a.correct_text, a.correct_option),
            },
            {
              accessor: 'is_correct',
              title: 'Result',
              render: (a) => <Badge color={a.is_correct ? 'green' : 'red'}>{a.is_correct ? 'Right' : 'Wrong'}</Badge>,
            },
          ]}
        />
      ) : (
        <Text size="sm">Your trainer has not enabled showing the right answers.</Text>
      )}
    </Stack>
  );
}

/** The test itself: one question at a time, the server's countdown, answers saved as they go. */
function TestRunner({ slug, type }: { slug: string; type: number }) {
  const [attempt, setAttempt] = useState<Attempt | null>(null);
  const [answers, setAnswers] = useState<Record<number, number>>({});
  const [index, setIndex] = useState(0);
  const [left, setLeft] = useState<number | null>(null);
  const [announce, setAnnounce] = useState('');
  const [result, setResult] = useState<AttemptResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  const [submitting, setSubmitting] = useState(false);
  const endAt = useRef(0);
  const submitted = useRef(false);

  useEffect(() => {
    let cancelled = false;
    apiPost('lpu/start-assessment', { slug, type })
      .then((a) => {
        if (cancelled) return;
        endAt.current = Date.now() + a.remaining_seconds * 1000;
        setAttempt(a);
        setLeft(a.remaining_seconds);
        setAnswers(Object.fromEntries(a.questions.filter((q) => q.answer).map((q) => [q.id, q.answer as number])));
        const firstOpen = a.questions.findIndex((q) => !q.answer);
        setIndex(firstOpen > 0 ? firstOpen : 0);
      })
      .catch(async (e) => {
        if (cancelled) return;
        if (e instanceof ApiError && e.status === 422) {
          try {
            setResult(await apiPost('lpu/assessment-result', { slug, type }));
            return;
          } catch {
            /* fall through to the message */
          }
        }
        const mapped = toFormErrors(e);
        setError(Object.values(mapped.fields)[0] ?? errorText(e));
      });
    return () => {
      cancelled = true;
    };
  }, [slug, type]);

  const submit = useCallback(async () => {
    if (!attempt || submitted.current) return;
    submitted.current = true;
    setSubmitting(true);
    try {
      setResult(await apiPost('lpu/submit-assessment', { attempt_id: attempt.attempt_id }));
    } catch (e) {
      submitted.current = false;
      setError(errorText(e));
    } finally {
      setSubmitting(false);
    }
  }, [attempt]);

  useEffect(() => {
    if (!attempt || result) return;
    const timer = window.setInterval(() => {
      const s = Math.max(0, Math.ceil((endAt.current - Date.now()) / 1000));
      setLeft((prev) => {
        if (prev !== s) {
          const say = timeAnnouncement(s);
          if (say) setAnnounce(say);
        }
        return s;
      });
      if (s === 0) {
        setAnnounce('Time is up. Your test was submitted.');
        void submit();
      }
    }, 250);
    return () => window.clearInterval(timer);
  }, [attempt, result, submit]);

  /** The learner's own submit asks first (the countdown's does not): how many are still open. */
  const askToSubmit = (open: number, total: number) =>
    confirmAction({
      title: 'Submit the test?',
      message: `${submitSummary(open, total)} Once you submit, you cannot change your answers.`,
      confirmLabel: 'Submit',
      onConfirm: () => void submit(),
    });

  const choose = async (questionId: number, answer: number) => {
    if (!attempt) return;
    setAnswers((a) => ({ ...a, [questionId]: answer }));
    setStatus('Saving…');
    try {
      await apiPost('lpu/save-assessment-answer', { attempt_id: attempt.attempt_id, question_id: questionId, answer });
      setStatus('Answer saved.');
    } catch (e) {
      const mapped = toFormErrors(e);
      const message = Object.values(mapped.fields)[0] ?? errorText(e);
      setStatus('');
      setError(message);
      if (e instanceof ApiError && e.status === 422) void submit();
    }
  };

  if (result) return <ResultView result={result} />;
  if (error && !attempt) return <ErrorAlert message={error} />;
  if (!attempt || left === null) return <Loading label="Loading the test…" />;
  if (attempt.questions.length === 0) return <EmptyState message="This test has no questions." />;
  const q = attempt.questions[index]!;
  const total = attempt.questions.length;
  const answered = Object.keys(answers).length;
  const last = index === total - 1;

  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap">
        <Text fw={600}>
          {TYPE_LABEL[attempt.type]} · {attempt.training_name}
        </Text>
        <Group gap="xs">
          <Text size="sm" c="dimmed">
            Time left
          </Text>
          <Badge
            size="xl"
            color={left <= 60 ? 'red' : 'blue'}
            variant="light"
            role="timer"
            aria-label={`Time left ${clock(left)}`}
          >
            {clock(left)}
          </Badge>
        </Group>
      </Group>
      <div
        aria-live="assertive"
        className="visually-hidden"
        style={{ position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)' }}
      >
        {announce}
      </div>
      <Progress value={(answered * 100) / total} aria-label={`${answered} of ${total} answered`} />
      <ErrorAlert message={error} />
      <Paper withBorder p="lg">
        <fieldset style={{ border: 0, margin: 0, padding: 0 }}>
          <legend style={{ fontWeight: 600, marginBottom: 12 }}>
            Question {index + 1} of {total}: {q.question}
          </legend>
          <Stack gap="sm">
            {[1, 2, 3, 4].map((n) => (
              <Radio
                key={`${q.id}-${n}`}
                name={`question-${q.id}`}
                value={String(n)}
                label={q[`option${n}` as 'option1']}
                checked={answers[q.id] === n}
                onChange={() => void choose(q.id, n)}
              />
            ))}
          </Stack>
        </fieldset>
      </Paper>
      <Text size="sm" c="dimmed" aria-live="polite">
        {status}
      </Text>
      <Group justify="space-between">
        <Button variant="default" disabled={index === 0} onClick={() => setIndex((i) => i - 1)}>
          Previous
        </Button>
        <Group gap="xs">
          {!last ? <Button onClick={() => setIndex((i) => i + 1)}>Next</Button> : null}
          <Button
            color={last ? 'blue' : 'gray'}
            variant={last ? 'filled' : 'light'}
            loading={submitting}
            onClick={() => askToSubmit(total - answered, total)}
          >
            Submit Test
          </Button>
        </Group>
      </Group>
    </Stack>
  );
}

function TestList({ slug }: { slug: string }) {
  const q = useApiQuery('lpu/get-assessments', { slug });
  if (q.isLoading) return <LoadingLines />;
  if (q.error) return <ErrorAlert message={errorText(q.error)} />;
  const list = q.data?.list ?? [];
  if (list.length === 0) return <EmptyState message="No Data Found" hint="This training has no tests yet." />;
  return (
    <Stack gap="sm">
      {list.map((a) => (
        <Paper key={a.type} withBorder p="md">
          <Group justify="space-between" wrap="wrap">
            <Stack gap={2}>
              <Title order={2} size="h4">
                {TYPE_LABEL[a.type]}
              </Title>
              <Text size="sm" c="dimmed">
                {a.total_questions} questions · {a.minute} minutes
                {a.extra_percent ? ` (with ${a.extra_percent}% extra time)` : ''} · {a.status}
                {a.percent !== null ? ` · score ${a.percent}%` : ''}
              </Text>
            </Stack>
            {a.can_start ? (
              <Button component={Link} to={testPath(slug, a.type)}>
                {a.status === 'in progress' ? 'Resume' : 'Start'} {TYPE_LABEL[a.type]}
              </Button>
            ) : (
              <Button component={Link} to={testPath(slug, a.type)} variant="default">
                View result
              </Button>
            )}
          </Group>
        </Paper>
      ))}
    </Stack>
  );
}

/** /assessment: the learner's tests of a training (?slug=) and the test page (?slug=&type=). */
export function AssessmentPage() {
  const title = useRouteTitle();
  const [params] = useSearchParams();
  const slug = params.get('slug');
  const type = Number(params.get('type'));
  return (
    <Stack gap="md">
      <BackLink to={slug && type ? testPath(slug) : '/my-trainings'}>
        {slug && type ? 'Back to tests' : 'Back to my trainings'}
      </BackLink>
      <PageHeader title={title} />
      {!slug ? (
        <Alert color="gray">Open a training’s tests from My Trainings.</Alert>
      ) : type === 1 || type === 2 ? (
        <TestRunner key={`${slug}-${type}`} slug={slug} type={type} />
      ) : (
        <TestList slug={slug} />
      )}
    </Stack>
  );
}
