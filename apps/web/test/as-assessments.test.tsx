import { notifications } from '@mantine/notifications';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { clock, timeAnnouncement } from '../src/features/assessments/types';
import { stubFetch } from './fetch-stub';
import { renderApp, signIn } from './render-app';

beforeEach(() => notifications.clean());

const ATTEMPT = {
  attempt_id: 9,
  type: 1,
  training_name: 'React Basics',
  slug: 'react-basics',
  remaining_seconds: 1800,
  deadline: '2030-01-01T00:30:00.000Z',
  total_seconds: 1800,
  questions: [
    {
      id: 11,
      question: 'What is JSX?',
      option1: 'A syntax',
      option2: 'A database',
      option3: 'A server',
      option4: 'A font',
      answer: null,
    },
    {
      id: 12,
      question: 'What is a hook?',
      option1: 'A function',
      option2: 'A class',
      option3: 'A file',
      option4: 'A CSS rule',
      answer: 1,
    },
  ],
};

describe('the countdown', () => {
  it('shows minutes:seconds and announces only set points', () => {
    expect(clock(1800)).toBe('30:00');
    expect(clock(65)).toBe('01:05');
    expect(clock(-3)).toBe('00:00');
    expect(timeAnnouncement(300)).toBe('5 minutes left.');
    expect(timeAnnouncement(299)).toBeNull();
  });
});

describe('/assessment (the test page)', () => {
  it('one question at a time as a fieldset with a legend, answers saved, submit shows the score', async () => {
    signIn(['user']);
    const net = stubFetch({
      'lpu/start-assessment': () => ({ body: ATTEMPT }),
      'lpu/save-assessment-answer': () => ({ body: { message: 'Answer saved.', remaining_seconds: 1790 } }),
      'lpu/submit-assessment': () => ({
        body: {
          attempt_id: 9,
          type: 1,
          score: 1,
          total: 2,
          percent: 50,
          submitted_at: '2030-01-01T00:10:00.000Z',
          answers: null,
        },
      }),
    });
    renderApp('/assessment?slug=react-basics&type=1');
    const user = userEvent.setup();
    const group = await screen.findByRole('group', { name: /Question 1 of 2: What is JSX\?/ });
    expect(screen.getByRole('timer')).toHaveTextContent(/^(30:00|29:59)$/);
    expect(screen.queryByText('What is a hook?')).toBeNull();
    await user.click(within(group).getByRole('radio', { name: 'A syntax' }));
    await waitFor(() => expect(net.callsTo('lpu/save-assessment-answer')).toHaveLength(1));
    expect(net.callsTo('lpu/save-assessment-answer')[0]!.body).toEqual({ attempt_id: 9, question_id: 11, answer: 1 });
    expect(await screen.findByText('Answer saved.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    const second = screen.getByRole('group', { name: /Question 2 of 2/ });
    expect(within(second).getByRole('radio', { name: 'A function' })).toBeChecked();
    // submitting asks first, saying how many questions are still open; No keeps the test going
    await user.click(screen.getByRole('button', { name: 'Submit Test' }));
    const ask = await screen.findByRole('dialog', { name: 'Submit the test?' });
    expect(ask).toHaveTextContent(
      'You have answered all 2 questions. Once you submit, you cannot change your answers.',
    );
    await user.click(within(ask).getByRole('button', { name: 'No' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(net.callsTo('lpu/submit-assessment')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Submit Test' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Your score: 1 of 2 (50%)')).toBeInTheDocument();
    expect(net.callsTo('lpu/submit-assessment')).toHaveLength(1);
    expect(screen.getByText('Your trainer has not enabled showing the right answers.')).toBeInTheDocument();
  });

  it('shows the result instead when the test was already taken', async () => {
    signIn(['user']);
    stubFetch({
      'lpu/start-assessment': () => ({ status: 422, body: { type: ['You have already taken this test.'] } }),
      'lpu/assessment-result': () => ({
        body: {
          attempt_id: 9,
          type: 1,
          score: 2,
          total: 2,
          percent: 100,
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
              answer: 2,
              correct_option: 1,
              is_correct: 0,
              answer_text: 'A class',
              correct_text: 'A function',
            },
            {
              question_id: 13,
              question: 'What is state?',
              answer: null,
              correct_option: 3,
              is_correct: 0,
              answer_text: null,
              correct_text: 'Data that changes',
            },
          ],
        },
      }),
    });
    renderApp('/assessment?slug=react-basics&type=1');
    expect(await screen.findByText('Your score: 2 of 2 (100%)')).toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Your answers' });
    expect(table).toHaveTextContent('Right');
    // the answers by their texts, not 'Option 2'
    const hook = within(table)
      .getAllByRole('row')
      .find((r) => within(r).queryByText('What is a hook?'))!;
    expect(hook).toHaveTextContent('A class');
    expect(hook).toHaveTextContent('A function');
    expect(hook).toHaveTextContent('Wrong');
    const state = within(table)
      .getAllByRole('row')
      .find((r) => within(r).queryByText('What is state?'))!;
    expect(state).toHaveTextContent('Not answered');
    expect(state).toHaveTextContent('Data that changes');
    expect(table).not.toHaveTextContent(/Option \d/);
  });

  it('a refused submit shows the server’s message and the test stays open', async () => {
    signIn(['user']);
    stubFetch({
      'lpu/start-assessment': () => ({ body: { ...ATTEMPT, questions: [{ ...ATTEMPT.questions[0]!, answer: null }] } }),
      'lpu/submit-assessment': () => ({ status: 422, body: { attempt_id: ['The test has already been submitted.'] } }),
    });
    renderApp('/assessment?slug=react-basics&type=1');
    const user = userEvent.setup();
    await screen.findByRole('group', { name: /Question 1 of 1/ });
    await user.click(screen.getByRole('button', { name: 'Submit Test' }));
    const ask = await screen.findByRole('dialog', { name: 'Submit the test?' });
    expect(ask).toHaveTextContent('You have not answered 1 of the 1 question.');
    await user.click(within(ask).getByRole('button', { name: 'Submit' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The test has already been submitted.');
    expect(screen.getByRole('group', { name: /Question 1 of 1/ })).toBeInTheDocument();
  });

  it('lists the training’s tests with their status', async () => {
    signIn(['user']);
    stubFetch({
      'lpu/get-assessments': () => ({
        body: {
          list: [
            { type: 1, minute: 30, total_questions: 5, status: 'submitted', can_start: 0, percent: 40 },
            { type: 2, minute: 20, total_questions: 6, status: 'not started', can_start: 1, percent: null },
          ],
        },
      }),
    });
    renderApp('/assessment?slug=react-basics');
    expect(await screen.findByText(/5 questions · 30 minutes · submitted · score 40%/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Start Post-assessment' })).toHaveAttribute(
      'href',
      '/assessment?slug=react-basics&type=2',
    );
    expect(screen.getByRole('link', { name: 'View result' })).toBeInTheDocument();
  });
});

describe('/question-bank/show', () => {
  it('lists the bank paged and adds a question, showing server errors under fields', async () => {
    signIn(['provider']);
    let adds = 0;
    const net = stubFetch({
      'get-question-bank': () => ({
        body: {
          list: [
            {
              id: 1,
              language_identified: 'English',
              question_category: 'K8s',
              question_type: 'Multiple choice',
              question: 'What is a pod?',
              option1: 'a',
              option2: 'b',
              option3: 'c',
              option4: 'd',
              correct_option: 2,
              level: 'Beginner',
              shared: 0,
            },
          ],
          total: 1,
          page: 1,
          per_page: 20,
        },
      }),
      'add-question': () =>
        ++adds === 1
          ? { status: 422, body: { question: ['The question is already in the bank.'] } }
          : { body: { message: 'Record Added Successfully!', success: {} } },
    });
    renderApp('/question-bank/show');
    const user = userEvent.setup();
    expect(await screen.findByText('What is a pod?', {}, { timeout: 5000 })).toBeInTheDocument();
    // the correct answer by its text (option 2 is 'b'), not 'Option 2'
    const bankRow = screen.getAllByRole('row').find((r) => within(r).queryByText('What is a pod?'))!;
    expect(within(bankRow).getByText('b')).toBeInTheDocument();
    expect(screen.queryByText('Option 2')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Add Question' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText(/Language/), 'English');
    await user.type(within(dialog).getByLabelText(/Category/), 'K8s');
    await user.type(within(dialog).getByRole('textbox', { name: /^Question\s*\*?$/ }), 'What is a pod?');
    for (const n of [1, 2, 3, 4]) await user.type(within(dialog).getByLabelText(new RegExp(`Option ${n}`)), `o${n}`);
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('The question is already in the bank.')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(net.callsTo('add-question')[1]!.body).toMatchObject({
      question: 'What is a pod?',
      correct_option: 1,
      level: 'Beginner',
    });
    await act(async () => {});
  });

  it('a refused delete shows the server’s message', async () => {
    signIn(['provider']);
    stubFetch({
      'get-question-bank': () => ({
        body: {
          list: [
            {
              id: 1,
              language_identified: 'English',
              question_category: 'K8s',
              question_type: 'Multiple choice',
              question: 'What is a pod?',
              option1: 'a',
              option2: 'b',
              option3: 'c',
              option4: 'd',
              correct_option: 2,
              level: 'Beginner',
              shared: 0,
            },
          ],
          total: 1,
          page: 1,
          per_page: 20,
        },
      }),
      'delete-question': () => ({
        status: 422,
        body: { id: ['The question is used in an assessment and cannot be deleted.'] },
      }),
    });
    renderApp('/question-bank/show');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Delete question 1' }, { timeout: 5000 }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Yes' }));
    expect(await screen.findByText('The question is used in an assessment and cannot be deleted.')).toBeInTheDocument();
  });
});
