import { Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useState } from 'react';
import { errorText } from '../../api/client';
import { apiDownload } from '../../api/upload';
import { useApiQuery } from '../../api/use-api';
import { DataTable } from '../../ui/DataTable';
import { EmptyState } from '../../ui/EmptyState';
import { ErrorAlert } from '../../ui/ErrorAlert';
import { LoadingLines } from '../../ui/Loading';
import { ExtraTimeSelect, useExtraTime } from './ExtraTimeSelect';
import type { Results } from './types';

const pct = (v: number | null) => (v === null ? '—' : `${v}%`);

/** Grouped horizontal bars: pre and post percent per learner (the gain is the difference). */
function GainChart({ learners }: { learners: Results['learners'] }) {
  const rows = learners.filter((l) => l.pre_percent !== null || l.post_percent !== null);
  if (rows.length === 0) return <EmptyState message="No scores yet." />;
  const bar = 12;
  const rowH = bar * 2 + 14;
  const labelW = 150;
  const width = 520;
  const scale = (v: number) => ((width - labelW - 50) * v) / 100;
  return (
    <svg
      role="img"
      aria-labelledby="gain-chart-title"
      viewBox={`0 0 ${width} ${rows.length * rowH + 24}`}
      width="100%"
      style={{ maxWidth: width }}
    >
      <title id="gain-chart-title">
        {`Pre and post scores per learner: ${rows.map((l) => `${l.name} ${pct(l.pre_percent)} to ${pct(l.post_percent)}`).join('; ')}`}
      </title>
      {rows.map((l, i) => {
        const y = i * rowH + 4;
        return (
          <g key={l.user_id}>
            <text x={0} y={y + bar + 4} fontSize={12} fill="currentColor">
              {l.name.length > 20 ? `${l.name.slice(0, 19)}…` : l.name}
            </text>
            <rect x={labelW} y={y} width={scale(l.pre_percent ?? 0)} height={bar} fill="#868e96" />
            <text x={labelW + scale(l.pre_percent ?? 0) + 4} y={y + bar - 2} fontSize={11} fill="currentColor">
              {pct(l.pre_percent)}
            </text>
            <rect x={labelW} y={y + bar + 2} width={scale(l.post_percent ?? 0)} height={bar} fill="#1971c2" />
            <text x={labelW + scale(l.post_percent ?? 0) + 4} y={y + bar * 2} fontSize={11} fill="currentColor">
              {pct(l.post_percent)}
            </text>
          </g>
        );
      })}
      <g transform={`translate(${labelW}, ${rows.length * rowH + 12})`}>
        <rect width={10} height={10} fill="#868e96" />
        <text x={14} y={9} fontSize={11} fill="currentColor">
          Pre
        </text>
        <rect x={50} width={10} height={10} fill="#1971c2" />
        <text x={64} y={9} fontSize={11} fill="currentColor">
          Post
        </text>
      </g>
    </svg>
  );
}

/** Per question: how many answered it right, as a share of those who answered. */
function QuestionChart({ questions }: { questions: Results['questions'] }) {
  if (questions.length === 0) return <EmptyState message="No answers yet." />;
  const rowH = 22;
  const width = 520;
  const labelW = 230;
  return (
    <svg
      role="img"
      aria-labelledby="question-chart-title"
      viewBox={`0 0 ${width} ${questions.length * rowH}`}
      width="100%"
      style={{ maxWidth: width }}
    >
      <title id="question-chart-title">
        {`Right answers per question: ${questions.map((q) => `${q.type === 1 ? 'Pre' : 'Post'} ${q.question}: ${q.right} of ${q.answered}`).join('; ')}`}
      </title>
      {questions.map((q, i) => {
        const share = q.answered ? q.right / q.answered : 0;
        const w = (width - labelW - 60) * share;
        const label = `${q.type === 1 ? 'Pre' : 'Post'}: ${q.question}`;
        return (
          <g key={`${q.type}-${q.question_id}`} transform={`translate(0, ${i * rowH})`}>
            <text x={0} y={14} fontSize={11} fill="currentColor">
              {label.length > 36 ? `${label.slice(0, 35)}…` : label}
            </text>
            <rect x={labelW} y={3} width={width - labelW - 60} height={14} fill="#e9ecef" />
            <rect x={labelW} y={3} width={w} height={14} fill={share >= 0.5 ? '#2f9e44' : '#e03131'} />
            <text x={width - 55} y={14} fontSize={11} fill="currentColor">
              {q.right}/{q.answered}
            </text>
          </g>
        );
      })}
    </svg>
  );
}

/** The results of a training's tests: per learner, class averages, per question, export. */
export default function ResultsPanel({ slug }: { slug: string }) {
  const q = useApiQuery('get-assessment-results', { slug });
  const [exportError, setExportError] = useState<string | null>(null);
  const extraTime = useExtraTime(slug);
  if (q.isLoading) return <LoadingLines lines={4} />;
  if (q.error) return <ErrorAlert message={errorText(q.error)} />;
  const r = q.data!;
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Text size="sm">
          Class averages — pre: <b>{pct(r.averages.pre)}</b>, post: <b>{pct(r.averages.post)}</b>, gain:{' '}
          <b>{r.averages.gain === null ? '—' : `${r.averages.gain > 0 ? '+' : ''}${r.averages.gain}`}</b>
        </Text>
        <Button
          variant="default"
          leftSection={<IconDownload size={16} aria-hidden />}
          onClick={() =>
            apiDownload('export-assessment-results', { slug }, `assessment-results-${slug}.xlsx`).catch((e) =>
              setExportError(errorText(e)),
            )
          }
        >
          Export .xlsx
        </Button>
      </Group>
      <ErrorAlert message={exportError} />
      {r.learners.length === 0 ? (
        <EmptyState />
      ) : (
        // the shared table: its rows turn into cards on a phone instead of clipping the columns
        <DataTable
          label="Scores per learner"
          serial={false}
          idAccessor="user_id"
          pageSize={50}
          records={r.learners}
          columns={[
            { accessor: 'name', title: 'Learner' },
            {
              accessor: 'pre_score',
              title: 'Pre score',
              render: (l) => (l.pre_score === null ? '—' : `${l.pre_score}/${l.pre_total} (${l.pre_percent}%)`),
            },
            {
              accessor: 'post_score',
              title: 'Post score',
              render: (l) => (l.post_score === null ? '—' : `${l.post_score}/${l.post_total} (${l.post_percent}%)`),
            },
            {
              accessor: 'gain',
              title: 'Gain',
              render: (l) => (l.gain === null ? '—' : `${l.gain > 0 ? '+' : ''}${l.gain}`),
            },
            {
              accessor: 'extra_time',
              title: 'Extra time',
              render: (l) => (
                <ExtraTimeSelect slug={slug} userId={l.user_id} name={l.name} value={extraTime.get(l.user_id) ?? 0} />
              ),
            },
          ]}
        />
      )}
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Paper withBorder p="sm">
          <Title order={2} size="h5" mb="xs">
            Gain per learner
          </Title>
          <GainChart learners={r.learners} />
        </Paper>
        <Paper withBorder p="sm">
          <Title order={2} size="h5" mb="xs">
            Right answers per question
          </Title>
          <QuestionChart questions={r.questions} />
        </Paper>
      </SimpleGrid>
    </Stack>
  );
}
