import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MSG } from '@trainlab/contract';
import { describe, expect, it, vi } from 'vitest';
import { stubFetch } from './fetch-stub';
import { renderApp, signIn } from './render-app';

/** A 360 px phone: the shared table's phone query matches (as do the ones setup.ts already answers). */
function onPhone() {
  const media = (query: string) => ({
    matches: query === '' || query === '(prefers-reduced-motion: reduce)' || query === '(max-width: 36em)',
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  });
  vi.stubGlobal('matchMedia', media);
}

describe('tables at 360 px', () => {
  it('the user’s empty upcoming trainings show no table header wider than the screen', async () => {
    onPhone();
    signIn(['user']);
    stubFetch({ 'lpu/dashboard-data': () => ({ body: { list: [], d_vm_data: null } }) });
    renderApp('/users');
    expect(await screen.findByText(MSG.noDataFound)).toBeInTheDocument();
    expect(within(screen.getByRole('status', { name: 'Upcoming trainings' })).getByText(MSG.noDataFound)).toBeVisible();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(screen.queryByRole('columnheader', { name: 'Start Date' })).not.toBeInTheDocument();
  });

  it('the assessment result turns each answer into a card', async () => {
    onPhone();
    signIn(['user']);
    stubFetch({
      'lpu/start-assessment': () => ({ status: 422, body: { type: ['You have already taken this test.'] } }),
      'lpu/assessment-result': () => ({
        body: {
          attempt_id: 9,
          type: 1,
          score: 1,
          total: 2,
          percent: 50,
          submitted_at: '2030-01-01T00:10:00.000Z',
          answers: [
            {
              question_id: 11,
              question: 'What is JSX?',
              answer: 1,
              correct_option: 1,
              is_correct: 1,
              answer_text: 'A syntax',
              correct_text: 'A syntax',
            },
            {
              question_id: 12,
              question: 'What is a hook?',
              answer: null,
              correct_option: 2,
              is_correct: 0,
              answer_text: null,
              correct_text: 'A function',
            },
          ],
        },
      }),
    });
    renderApp('/assessment?slug=react-basics&type=1');
    const cards = await screen.findByRole('list', { name: 'Your answers' });
    const items = within(cards).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[1]).toHaveTextContent('What is a hook?');
    expect(items[1]).toHaveTextContent('Not answered');
    expect(items[1]).toHaveTextContent('A function');
    expect(items[1]).toHaveTextContent('Wrong');
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  const RESULTS = {
    training_name: 'React Basics',
    learners: [
      {
        user_id: 5,
        name: 'Liam Learner',
        email: 'learner@demo.test',
        pre_score: 2,
        pre_total: 3,
        pre_percent: 67,
        post_score: 4,
        post_total: 4,
        post_percent: 100,
        gain: 33,
      },
    ],
    averages: { pre: 67, post: 100, gain: 33 },
    questions: [],
  };
  const openResults = async () => {
    signIn(['provider']);
    stubFetch({
      'get-assessment-results': () => ({ body: RESULTS }),
      'get-assessment-time-extensions': () => ({ body: { list: [], total: 0, page: 1, per_page: 100 } }),
    });
    renderApp('/assessment/add/react-basics');
    await userEvent.setup().click(await screen.findByRole('tab', { name: 'Results' }));
  };

  it('the scores per learner are a table on a wide screen', async () => {
    await openResults();
    const table = await screen.findByRole('table', { name: 'Scores per learner' });
    const row = within(table)
      .getAllByRole('row')
      .find((r) => within(r).queryByText('Liam Learner'));
    expect(row).toHaveTextContent('2/3 (67%)');
    expect(row).toHaveTextContent('4/4 (100%)');
    expect(row).toHaveTextContent('+33');
  });

  it('the scores per learner are cards on a phone, extra time included', async () => {
    onPhone();
    await openResults();
    const cards = await screen.findByRole('list', { name: 'Scores per learner' });
    const [card] = within(cards).getAllByRole('listitem');
    expect(card).toHaveTextContent('Liam Learner');
    expect(card).toHaveTextContent('4/4 (100%)');
    expect(within(card!).getByText('Extra time')).toBeInTheDocument();
    expect(screen.queryByRole('table', { name: 'Scores per learner' })).not.toBeInTheDocument();
  });
});
