import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { MAILBOX_UNAVAILABLE } from '../src/features/dev/MailboxPage';
import { stubFetch } from './fetch-stub';
import { renderApp } from './render-app';

describe('dev mailbox', () => {
  it('lists messages newest first with clickable links', async () => {
    stubFetch({
      'dev/mailbox': () => ({
        body: {
          list: [
            {
              id: 1,
              channel: 'email',
              to: 'a@demo.test',
              subject: 'Welcome',
              text: 'Hello',
              created_at: '2025-01-01T10:00:00.000Z',
            },
            {
              id: 2,
              channel: 'email',
              to: 'user@demo.test',
              subject: 'Reset Password',
              text: 'Open http://localhost:3000/reset-password/TOKEN123 to reset.',
              created_at: '2025-01-02T10:00:00.000Z',
            },
          ],
        },
      }),
    });
    renderApp('/dev/mailbox');
    const first = await screen.findByText('Reset Password');
    const second = screen.getByText('Welcome');
    expect(first.compareDocumentPosition(second) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    await userEvent.click(first);
    expect(await screen.findByRole('link', { name: 'http://localhost:3000/reset-password/TOKEN123' })).toHaveAttribute(
      'href',
      'http://localhost:3000/reset-password/TOKEN123',
    );
  });

  it('says so when the server has no mailbox (404)', async () => {
    stubFetch();
    renderApp('/dev/mailbox');
    expect(await screen.findByText(MAILBOX_UNAVAILABLE)).toBeInTheDocument();
  });
});
