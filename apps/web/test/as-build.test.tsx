import { notifications } from '@mantine/notifications';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { stubFetch } from './fetch-stub';
import { renderApp, signIn } from './render-app';
import { trainingRow } from './training-fixtures';

/** /assessment/add/{slug}: every refused save shows; a training without the test can switch it on (issue 32). */

beforeEach(() => notifications.clean());

/** The red alert that carries this text. */
async function alertWith(text: string) {
  const found = await screen.findByText(text);
  const alert = found.closest('[role="alert"]');
  expect(alert, `an alert with '${text}'`).not.toBeNull();
  return alert as HTMLElement;
}

const TRAINING = trainingRow({ requirements: [] });

const QUESTION = {
  id: 31,
  language_identified: 'English',
  question_category: 'React',
  question_type: 'Multiple choice',
  question: 'What is JSX?',
  option1: 'A syntax',
  option2: 'A database',
  option3: 'A server',
  option4: 'A font',
  correct_option: 1,
  level: 'Beginner',
  shared: 0,
};

const NOT_INCLUDED =
  "The training does not include a pre-assessment. Switch it on first: 'Switch on pre-assessment' on this page, or Edit in the training's menu on All Trainings.";

function stubBuild(over: Parameters<typeof stubFetch>[0] = {}) {
  let pre = 0;
  const net = stubFetch({
    'get-training-details': () => ({ body: { success: { ...TRAINING, pre_assessment: pre } } }),
    'get-assessment-questions': () => ({ body: { success: null } }),
    'get-language-identified': () => ({ body: { list: ['English'] } }),
    'get-question-bank': () => ({ body: { list: [QUESTION], total: 1, page: 1, per_page: 100 } }),
    'add-random-questions': () => ({ status: 422, body: { type: [NOT_INCLUDED] } }),
    'update-training': () => {
      pre = 1;
      return {
        body: {
          message: 'Training updated successfully!',
          id: 7,
          slug: 'react-basics',
          cost: 300,
          pre_assessment: 1,
          post_assessment: 0,
        },
      };
    },
    ...over,
  });
  return net;
}

describe('/assessment/add/{slug}', () => {
  it('shows the refused save of a training without the test, and switches the test on', async () => {
    signIn(['provider']);
    const net = stubBuild();
    renderApp('/assessment/add/react-basics');
    const user = userEvent.setup();
    // the tabs keep the spec's names; the texts say what each one means
    expect(await screen.findByRole('tab', { name: 'Random' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Automatic' })).toBeInTheDocument();
    expect(screen.getByText(/^Pick questions: you choose the questions by hand/)).toBeInTheDocument();
    const notice = await screen.findByText('This training does not include a pre-assessment');
    expect(notice).toBeInTheDocument();

    await user.click(await screen.findByRole('checkbox', { name: /What is JSX\?/ }));
    await user.click(screen.getByRole('button', { name: 'Save Random Test' }));
    await alertWith(NOT_INCLUDED);
    expect(net.callsTo('add-random-questions')[0]!.body).toMatchObject({
      type: 1,
      question_ids: [31],
      slug: 'react-basics',
    });

    await user.click(screen.getByRole('button', { name: 'Switch on pre-assessment' }));
    await waitFor(() =>
      expect(net.callsTo('update-training')[0]?.body).toEqual({ slug: 'react-basics', pre_assessment: 1 }),
    );
    expect(await screen.findByText('Training updated successfully!')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('This training does not include a pre-assessment')).toBeNull());
  });

  it('an empty bank says so and links to it (issue 41)', async () => {
    signIn(['provider']);
    stubBuild({ 'get-question-bank': () => ({ body: { list: [], total: 0, page: 1, per_page: 100 } }) });
    renderApp('/assessment/add/react-basics');
    expect(await screen.findByText(/Add questions to the bank first\./)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Open the question bank' })).toHaveAttribute('href', '/question-bank/add');
  });

  it('a refused switch shows its message', async () => {
    signIn(['organization']);
    stubBuild({ 'update-training': () => ({ status: 404, body: { message: 'Not Found' } }) });
    renderApp('/assessment/add/react-basics');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Switch on pre-assessment' }));
    await alertWith('Something went worng.');
  });

  it('Automatic: field errors under their fields, the rest at the top', async () => {
    signIn(['provider']);
    const net = stubBuild({
      'get-training-details': () => ({ body: { success: { ...TRAINING, pre_assessment: 1, post_assessment: 1 } } }),
      'add-automatic-questions': () => ({
        status: 422,
        body: {
          beginner_question: ['The bank has only 1 Beginner question in this language.'],
          type: ['Learners have already started this test; it can no longer be changed.'],
        },
      }),
    });
    renderApp('/assessment/add/react-basics');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('tab', { name: 'Automatic' }));
    expect(screen.getByText(/^Drawn per learner: say how many questions of each level/)).toBeInTheDocument();
    await user.click(screen.getByRole('textbox', { name: /Language/ }));
    await user.click(await screen.findByRole('option', { name: 'English' }));
    const beginner = screen.getByRole('textbox', { name: 'Beginner questions' });
    await user.clear(beginner);
    await user.type(beginner, '3');
    await user.click(screen.getByRole('button', { name: 'Save Automatic Test' }));
    await alertWith('Learners have already started this test; it can no longer be changed.');
    expect(screen.getByText('The bank has only 1 Beginner question in this language.')).toBeInTheDocument();
    expect(net.callsTo('add-automatic-questions')[0]!.body).toMatchObject({
      type: 1,
      languge_identified: 'English',
      beginner_question: 3,
    });
    // no switch-on notice for a training that includes the test
    expect(screen.queryByRole('button', { name: /Switch on/ })).toBeNull();
    expect(within(screen.getByRole('tabpanel')).queryByText(/Pick questions/)).toBeNull();
  });
});
