import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { type DashboardCharts, MSG } from '@trainlab/contract';
import { describe, expect, it } from 'vitest';
import { formatPaise, formatPaiseShort } from '../src/features/dashboards/format';
import { stubFetch } from './fetch-stub';
import { renderApp, signIn } from './render-app';

/** The dashboards' charts (decision 0046): a picture named by its summary, the same figures as a table. */

const months = [
  '2025-12',
  '2026-01',
  '2026-02',
  '2026-03',
  '2026-04',
  '2026-05',
  '2026-06',
  '2026-07',
  '2026-08',
  '2026-09',
  '2026-10',
  '2026-11',
];
const CHARTS: DashboardCharts = {
  enrolments: months.map((month, i) => ({
    month,
    trainings: i === 11 ? 5 : i === 9 ? 2 : 0,
    courses: i === 11 ? 1 : 0,
  })),
  revenue: months.map((month, i) => ({
    month,
    amount_paise: i === 11 ? 1_234_550 : i === 10 ? 49_900 : 0,
    amount: i === 11 ? 12_345.5 : i === 10 ? 499 : 0,
  })),
  attendance: [
    {
      slug: 'k8s',
      name: 'Kubernetes Basics for Operators',
      start_date: '2026-11-01T09:00:00.000Z',
      enrolled: 8,
      joined: 6,
      minutes: 540,
    },
    { slug: 'py', name: 'Python', start_date: '2026-11-10T09:00:00.000Z', enrolled: 4, joined: 1, minutes: 45 },
  ],
  assessment_gain: [
    {
      slug: 'k8s',
      name: 'Kubernetes Basics for Operators',
      start_date: '2026-11-01T09:00:00.000Z',
      pre_percent: 42.5,
      post_percent: 81,
      pre_learners: 6,
      post_learners: 5,
    },
    {
      slug: 'py',
      name: 'Python',
      start_date: '2026-11-10T09:00:00.000Z',
      pre_percent: 60,
      post_percent: null,
      pre_learners: 1,
      post_learners: 0,
    },
  ],
};
const EMPTY: DashboardCharts = { enrolments: [], revenue: [], attendance: [], assessment_gain: [] };

const ADMIN_DATA = {
  pending: { organizations: 0, providers: 0, organization_accounts: 0, sub_admins: 0 },
  totals: { organizations: 1, providers: 1, users: { user: 1 }, trainings: 2 },
};
const PROVIDER_DATA = {
  list: [],
  total_trainings: 3,
  upcoming_trainings: 1,
  completed_trainings: 2,
  total_participants: 12,
};

const panel = (name: string) => screen.findByRole('region', { name });

describe('dashboard charts', () => {
  it('the admin home draws each chart with a summary and shows the same figures as a table', async () => {
    signIn(['admin']);
    const net = stubFetch({
      'admin/dashboard-data': () => ({ body: ADMIN_DATA }),
      'admin/dashboard-charts': () => ({ body: CHARTS }),
    });
    renderApp('/admin/home');
    const enrolments = await panel('Enrolments per month');
    expect(within(enrolments).getByRole('img')).toHaveAccessibleName(
      'Enrolments per month, December 2025 to November 2026: 7 learners enrolled in live trainings and 1 in courses; the busiest month was November 2026 with 6.',
    );
    const revenue = screen.getByRole('region', { name: 'Revenue per month' });
    expect(within(revenue).getByRole('img')).toHaveAccessibleName(
      'Revenue per month, December 2025 to November 2026: ₹12,844.50 in total; the highest month was November 2026 with ₹12,345.50.',
    );
    expect(net.callsTo('admin/dashboard-charts')).toHaveLength(1);
    // the number cards stay
    expect(screen.getByRole('region', { name: 'Totals' })).toBeInTheDocument();

    const user = userEvent.setup();
    await user.click(within(revenue).getByRole('button', { name: 'Show as table' }));
    const table = within(revenue).getByRole('table', { name: 'Revenue per month' });
    expect(within(table).getByRole('rowheader', { name: 'November 2026' })).toBeInTheDocument();
    const november = within(table).getByRole('row', { name: /November 2026/ });
    expect(within(november).getByRole('cell')).toHaveTextContent('₹12,345.50');
    expect(within(table).getAllByRole('row')).toHaveLength(13);
    expect(within(revenue).queryByRole('img')).toBeNull();
    // and back
    await user.click(within(revenue).getByRole('button', { name: 'Show as chart' }));
    expect(within(revenue).getByRole('img')).toBeInTheDocument();
    expect(within(revenue).queryByRole('table')).toBeNull();

    const gain = screen.getByRole('region', { name: 'Pre and post assessment scores' });
    await user.click(within(gain).getByRole('button', { name: 'Show as table' }));
    const k8s = within(within(gain).getByRole('table')).getByRole('row', { name: /Kubernetes Basics for Operators/ });
    expect(
      within(k8s)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['42.5%', '81%', '+38.5 points', '6 / 5']);
    const py = within(within(gain).getByRole('table')).getByRole('row', { name: /Python/ });
    expect(
      within(py)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['60%', 'No attempts', '—', '1 / 0']);

    const attendance = screen.getByRole('region', { name: 'Attendance' });
    expect(within(attendance).getByRole('img')).toHaveAccessibleName(
      'Attendance of the latest 2 trainings: 7 of 12 enrolled learners joined; 585 minutes attended in all.',
    );
  });

  it("a provider's dashboard asks for its tenant's charts and says when there is nothing yet", async () => {
    signIn(['provider']);
    const net = stubFetch({
      'get-dashboard-data': () => ({ body: PROVIDER_DATA }),
      'dashboard-charts': () => ({ body: EMPTY }),
    });
    renderApp('/learning-provider');
    expect(within(await panel('Enrolments per month')).getByText('No enrolments yet.')).toBeInTheDocument();
    expect(
      within(screen.getByRole('region', { name: 'Course sales per month' })).getByText('No course sales yet.'),
    ).toBeInTheDocument();
    expect(
      within(screen.getByRole('region', { name: 'Attendance' })).getByText('No training has started yet.'),
    ).toBeInTheDocument();
    expect(
      within(screen.getByRole('region', { name: 'Pre and post assessment scores' })).getByText(
        'No assessment has been taken yet.',
      ),
    ).toBeInTheDocument();
    // nothing to turn into a table, no picture without figures
    expect(screen.queryByRole('button', { name: 'Show as table' })).toBeNull();
    expect(screen.queryByRole('img')).toBeNull();
    expect(net.callsTo('dashboard-charts')).toHaveLength(1);
    expect(net.callsTo('admin/dashboard-charts')).toHaveLength(0);
    expect(screen.getByLabelText('Total Participants')).toHaveTextContent('12');
  });

  it('the organization home shows a refused call as a message, and keeps its counts', async () => {
    signIn(['organization']);
    stubFetch({
      'org/dashboard-data': () => ({
        body: {
          organization: { id: 1, slug: 'acme', name: 'Acme' },
          counts: {
            sub_admins: 1,
            pending_sub_admins: 0,
            organization_users: 4,
            departments: 1,
            branches: 1,
            sections: 1,
          },
          list: [],
        },
      }),
      'dashboard-charts': () => ({ status: 500, body: { message: 'Internal Server Error.' } }),
    });
    renderApp('/organization');
    const trends = await screen.findByRole('region', { name: 'Trends' });
    expect(await within(trends).findByRole('alert')).toHaveTextContent(MSG.internalError);
    expect(screen.getByLabelText('Organization counts')).toHaveTextContent('4');
  });

  it('a 403 (an organization account without an organization) says why', async () => {
    signIn(['organization']);
    stubFetch({
      'org/dashboard-data': () => ({
        status: 403,
        body: { message: 'Your account is not linked to an organization.' },
      }),
      'dashboard-charts': () => ({ status: 403, body: { message: 'Your account is not linked to an organization.' } }),
    });
    renderApp('/organization');
    const trends = await screen.findByRole('region', { name: 'Trends' });
    await waitFor(() =>
      expect(within(trends).getByRole('alert')).toHaveTextContent('Your account is not linked to an organization.'),
    );
  });

  it('formats paise as rupees only at the edge', () => {
    expect(formatPaise(49_900)).toBe('₹499');
    expect(formatPaise(7_550)).toBe('₹75.50');
    expect(formatPaise(123_456_789)).toBe('₹12,34,567.89');
    expect(formatPaise(0)).toBe('₹0');
    expect(formatPaiseShort(15_000_000)).toBe('₹1.5L');
    expect(formatPaiseShort(1_200_000)).toBe('₹12K');
    expect(formatPaiseShort(49_900)).toBe('₹499');
  });
});
