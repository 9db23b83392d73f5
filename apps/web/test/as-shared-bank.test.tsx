import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { stubFetch } from './fetch-stub';
import { renderApp, signIn } from './render-app';

const sharedQuestion = {
  id: 9,
  language_identified: 'English',
  question_category: 'Cloud',
  question_type: 'Multiple choice',
  question: 'What is a region?',
  option1: 'a',
  option2: 'b',
  option3: 'c',
  option4: 'd',
  correct_option: 2,
  level: 'Beginner',
  shared: 1,
};
const bank = () => ({ body: { list: [sharedQuestion], total: 1, page: 1, per_page: 20 } });

describe('the shared question bank', () => {
  it('the admin keeps the shared bank: reached from the sidebar, its questions editable, upload offered', async () => {
    signIn(['admin']);
    const net = stubFetch({
      'admin-home': () => ({ body: {} }),
      'get-question-bank': bank,
      'update-question': () => ({ body: { message: 'Record Updated Successfully!', success: sharedQuestion } }),
    });
    renderApp('/question-bank/show');
    expect(await screen.findByRole('heading', { level: 1, name: 'Shared Question Bank' })).toBeInTheDocument();
    expect(screen.getByText(/visible to every tenant/)).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: 'Shared Question Bank' })[0]).toHaveAttribute(
      'href',
      '/question-bank/show',
    );
    expect(screen.getByRole('link', { name: 'Upload Questions' })).toHaveAttribute('href', '/question-bank/add');
    const user = userEvent.setup();
    await user.click((await screen.findAllByRole('button', { name: 'Edit question 9' }, { timeout: 5000 }))[0]!);
    const dialog = await screen.findByRole('dialog', { name: 'Edit Question' });
    const text = within(dialog).getByRole('textbox', { name: /^Question\s*\*?$/ });
    await user.clear(text);
    await user.type(text, 'What is an availability zone?');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(net.callsTo('update-question')[0]?.body).toMatchObject({
        id: 9,
        question: 'What is an availability zone?',
      }),
    );
  });

  it('a provider sees shared questions read-only', async () => {
    signIn(['provider']);
    stubFetch({ 'get-question-bank': bank });
    renderApp('/question-bank/show');
    expect((await screen.findAllByText('What is a region?', {}, { timeout: 5000 }))[0]).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Question Bank' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit question 9' })).toBeNull();
    expect(screen.getAllByText('Shared')[0]).toBeInTheDocument();
  });
});
