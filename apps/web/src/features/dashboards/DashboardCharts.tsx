import '@mantine/charts/styles.css';
import { BarChart, LineChart } from '@mantine/charts';
import { SimpleGrid, Stack, Title } from '@mantine/core';
import type { AssessmentGain, EnrolmentMonth, RevenueMonth, TrainingAttendance } from '@trainlab/contract';
import type { ApiPath } from '../../api/call-types';
import { errorText } from '../../api/client';
import { useApiQuery } from '../../api/use-api';
import { ErrorAlert } from '../../ui/ErrorAlert';
import { Loading } from '../../ui/Loading';
import { ChartPanel } from './ChartPanel';
import { formatPaise, formatPaiseShort, monthLong, monthShort, percent, shortName } from './format';

/** whose figures: the admin's whole platform, or a manager's own tenant (the call decides which) */
export type ChartsAudience = 'platform' | 'tenant';
export const CHARTS_CALL = {
  platform: 'admin/dashboard-charts',
  tenant: 'dashboard-charts',
} as const satisfies Record<ChartsAudience, ApiPath>;

const sum = (ns: number[]) => ns.reduce((a, b) => a + b, 0);
const span = (rows: { month: string }[]) => `${monthLong(rows[0]!.month)} to ${monthLong(rows.at(-1)!.month)}`;
function busiest<T extends { month: string }>(rows: T[], value: (r: T) => number) {
  return rows.reduce((best, r) => (value(r) > value(best) ? r : best), rows[0]!);
}
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
/** room on the category axis of a horizontal bar chart, per training */
const rowsHeight = (n: number) => Math.max(180, 56 + n * 48);

function EnrolmentsChart({ rows }: { rows: EnrolmentMonth[] }) {
  const live = sum(rows.map((r) => r.trainings));
  const recorded = sum(rows.map((r) => r.courses));
  const top = rows.length ? busiest(rows, (r) => r.trainings + r.courses) : null;
  const summary = top
    ? `Enrolments per month, ${span(rows)}: ${plural(live, 'learner')} enrolled in live trainings and ${recorded} in courses; the busiest month was ${monthLong(top.month)} with ${top.trainings + top.courses}.`
    : '';
  return (
    <ChartPanel
      title="Enrolments per month"
      description="Learners enrolled in live trainings and in courses, last 12 months"
      summary={summary}
      emptyMessage="No enrolments yet."
      rows={rows}
      rowKey={(r) => r.month}
      columns={[
        { title: 'Month', value: (r) => monthLong(r.month) },
        { title: 'Live trainings', value: (r) => r.trainings, numeric: true },
        { title: 'Courses', value: (r) => r.courses, numeric: true },
      ]}
      chart={
        <BarChart
          h={260}
          data={rows.map((r) => ({ month: monthShort(r.month), trainings: r.trainings, courses: r.courses }))}
          dataKey="month"
          type="stacked"
          series={[
            { name: 'trainings', label: 'Live trainings', color: 'indigo.6' },
            { name: 'courses', label: 'Courses', color: 'orange.6' },
          ]}
          withLegend
          xAxisLabel="Month"
          yAxisLabel="Learners"
          yAxisProps={{ allowDecimals: false, width: 40 }}
          tickLine="y"
        />
      }
    />
  );
}

function RevenueChart({ rows, audience }: { rows: RevenueMonth[]; audience: ChartsAudience }) {
  const total = sum(rows.map((r) => r.amount_paise));
  const top = rows.length ? busiest(rows, (r) => r.amount_paise) : null;
  const title = audience === 'platform' ? 'Revenue per month' : 'Course sales per month';
  const summary = top
    ? `${title}, ${span(rows)}: ${formatPaise(total)} in total; the highest month was ${monthLong(top.month)} with ${formatPaise(top.amount_paise)}.`
    : '';
  return (
    <ChartPanel
      title={title}
      description={
        audience === 'platform'
          ? 'Successful payments less refunds, last 12 months'
          : 'Your courses sold in the catalogue, less refunds, last 12 months'
      }
      summary={summary}
      emptyMessage={audience === 'platform' ? 'No revenue yet.' : 'No course sales yet.'}
      rows={rows}
      rowKey={(r) => r.month}
      columns={[
        { title: 'Month', value: (r) => monthLong(r.month) },
        { title: 'Amount', value: (r) => formatPaise(r.amount_paise), numeric: true },
      ]}
      chart={
        <LineChart
          h={260}
          data={rows.map((r) => ({ month: monthShort(r.month), amount: r.amount_paise }))}
          dataKey="month"
          series={[{ name: 'amount', label: 'Amount', color: 'teal.8' }]}
          curveType="linear"
          valueFormatter={formatPaise}
          xAxisLabel="Month"
          yAxisLabel="Rupees"
          yAxisProps={{ tickFormatter: formatPaiseShort, width: 56 }}
          tickLine="y"
        />
      }
    />
  );
}

function AttendanceChart({ rows }: { rows: TrainingAttendance[] }) {
  const enrolled = sum(rows.map((r) => r.enrolled));
  const joined = sum(rows.map((r) => r.joined));
  const summary = `Attendance of the latest ${plural(rows.length, 'training')}: ${joined} of ${plural(enrolled, 'enrolled learner')} joined; ${sum(rows.map((r) => r.minutes))} minutes attended in all.`;
  return (
    <ChartPanel
      title="Attendance"
      description="Enrolled learners and those who joined, latest trainings that have started"
      summary={summary}
      emptyMessage="No training has started yet."
      rows={rows}
      rowKey={(r) => r.slug}
      columns={[
        { title: 'Training', value: (r) => r.name },
        { title: 'Enrolled', value: (r) => r.enrolled, numeric: true },
        { title: 'Joined', value: (r) => r.joined, numeric: true },
        { title: 'Minutes', value: (r) => r.minutes, numeric: true },
      ]}
      chart={
        <BarChart
          h={rowsHeight(rows.length)}
          data={rows.map((r) => ({ training: shortName(r.name), enrolled: r.enrolled, joined: r.joined }))}
          dataKey="training"
          orientation="vertical"
          series={[
            { name: 'enrolled', label: 'Enrolled', color: 'gray.6' },
            { name: 'joined', label: 'Joined', color: 'indigo.6' },
          ]}
          withLegend
          xAxisLabel="Learners"
          xAxisProps={{ allowDecimals: false }}
          yAxisProps={{ width: 104 }}
          tickLine="x"
        />
      }
    />
  );
}

function GainChart({ rows }: { rows: AssessmentGain[] }) {
  const both = rows.filter((r) => r.pre_percent !== null && r.post_percent !== null);
  const avg = (ns: number[]) => Math.round((sum(ns) / ns.length) * 10) / 10;
  const summary = both.length
    ? `Average pre- and post-assessment scores of ${plural(rows.length, 'training')}: where both were taken, ${avg(both.map((r) => r.pre_percent!))}% before and ${avg(both.map((r) => r.post_percent!))}% after.`
    : `Average assessment scores of ${plural(rows.length, 'training')}; none has both a pre and a post assessment taken yet.`;
  return (
    <ChartPanel
      title="Pre and post assessment scores"
      description="Average score of each learner's latest attempt, per training"
      summary={summary}
      emptyMessage="No assessment has been taken yet."
      rows={rows}
      rowKey={(r) => r.slug}
      columns={[
        { title: 'Training', value: (r) => r.name },
        { title: 'Pre', value: (r) => percent(r.pre_percent), numeric: true },
        { title: 'Post', value: (r) => percent(r.post_percent), numeric: true },
        {
          title: 'Change',
          value: (r) =>
            r.pre_percent !== null && r.post_percent !== null
              ? `${r.post_percent >= r.pre_percent ? '+' : '−'}${Math.abs(Math.round((r.post_percent - r.pre_percent) * 10) / 10)} points`
              : '—',
          numeric: true,
        },
        { title: 'Learners (pre / post)', value: (r) => `${r.pre_learners} / ${r.post_learners}`, numeric: true },
      ]}
      chart={
        <BarChart
          h={rowsHeight(rows.length)}
          data={rows.map((r) => ({ training: shortName(r.name), pre: r.pre_percent, post: r.post_percent }))}
          dataKey="training"
          orientation="vertical"
          series={[
            { name: 'pre', label: 'Pre', color: 'gray.6' },
            { name: 'post', label: 'Post', color: 'teal.8' },
          ]}
          valueFormatter={(v) => `${v}%`}
          withLegend
          xAxisLabel="Average score (%)"
          xAxisProps={{ domain: [0, 100] }}
          yAxisProps={{ width: 104 }}
          tickLine="x"
        />
      }
    />
  );
}

/** The charts of a dashboard: loaded on their own (recharts stays out of the page's chunk). */
export function DashboardCharts({ audience }: { audience: ChartsAudience }) {
  const q = useApiQuery(CHARTS_CALL[audience]);
  return (
    <Stack component="section" aria-labelledby="trends-title" gap="md">
      <Title id="trends-title" order={2} size="h4">
        Trends
      </Title>
      {q.isLoading ? <Loading label="Loading charts…" /> : null}
      {q.error ? <ErrorAlert message={errorText(q.error)} /> : null}
      {q.data ? (
        <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
          <EnrolmentsChart rows={q.data.enrolments} />
          <RevenueChart rows={q.data.revenue} audience={audience} />
          <AttendanceChart rows={q.data.attendance} />
          <GainChart rows={q.data.assessment_gain} />
        </SimpleGrid>
      ) : null}
    </Stack>
  );
}
