import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { stubFetch } from './fetch-stub';
import { renderApp, signIn } from './render-app';

const bundle = (over: Record<string, unknown> = {}) => ({
  body: {
    list: [
      {
        user_id: 12,
        name: 'Asha Verma',
        email: 'asha@example.test',
        minutes: 95,
        pre_percent: 40,
        post_percent: 90,
        gain: 50,
      },
      {
        user_id: 13,
        name: 'Bo Li',
        email: 'bo@example.test',
        minutes: 0,
        pre_percent: null,
        post_percent: null,
        gain: null,
      },
    ],
    total: 2,
    page: 1,
    per_page: 20,
    training_name: 'React basics',
    recordings: [{ topic_id: 5, topic: 'Hooks in depth', page: '/recording/NQ==' }],
    ...over,
  },
});

const bundleRow = (name: string) => {
  const table = screen.getByRole('table', { name: 'Session bundle' });
  const found = within(table)
    .queryAllByRole('row')
    .find((r) => within(r).queryByText(name));
  if (!found) throw new Error(`no row ${name}`);
  return found;
};

describe('session bundle on the completed training', () => {
  it('shows per learner the minutes, pre/post scores and gain, and links the recordings', async () => {
    signIn(['provider']);
    const net = stubFetch({
      'lp/get-training-users': () => ({ body: { list: [], total: 0, page: 1, per_page: 20 } }),
      'get-session-bundle': () => bundle(),
    });
    renderApp('/completed-training-users/react-basics');
    expect(await screen.findByRole('heading', { level: 2, name: 'Session bundle' })).toBeInTheDocument();
    const asha = await waitFor(() => bundleRow('Asha Verma'));
    expect(within(asha).getByText('95')).toBeInTheDocument();
    expect(within(asha).getByText('40 %')).toBeInTheDocument();
    expect(within(asha).getByText('90 %')).toBeInTheDocument();
    expect(within(asha).getByText('+50 points')).toBeInTheDocument();
    expect(within(bundleRow('Bo Li')).getAllByText('Not taken')).toHaveLength(2);
    expect(screen.getByRole('link', { name: 'Hooks in depth' })).toHaveAttribute('href', '/recording/NQ==');
    expect(net.callsTo('get-session-bundle')[0]?.body).toMatchObject({ slug: 'react-basics', page: 1 });

    // its own search box, told apart from the users table's
    expect(screen.getByRole('textbox', { name: 'Search the session bundle' })).toBeInTheDocument();
    // sorting goes to the server
    await userEvent.click(within(screen.getByRole('table', { name: 'Session bundle' })).getByText('Attended (min)'));
    await waitFor(() => expect(net.callsTo('get-session-bundle').at(-1)?.body).toMatchObject({ sort: 'minutes' }));
  });

  it('says when there are no recordings', async () => {
    signIn(['provider']);
    stubFetch({
      'lp/get-training-users': () => ({ body: { list: [], total: 0, page: 1, per_page: 20 } }),
      'get-session-bundle': () => bundle({ recordings: [] }),
    });
    renderApp('/completed-training-users/react-basics');
    expect(await screen.findByText('No recordings of this training.')).toBeInTheDocument();
  });

  it('shows an error when the bundle cannot be loaded', async () => {
    signIn(['provider']);
    stubFetch({
      'lp/get-training-users': () => ({ body: { list: [], total: 0, page: 1, per_page: 20 } }),
      'get-session-bundle': () => ({ status: 500, body: { message: 'Something went worng.' } }),
    });
    renderApp('/completed-training-users/react-basics');
    const section = (await screen.findByRole('heading', { level: 2, name: 'Session bundle' })).closest('section')!;
    expect(await within(section as HTMLElement).findByRole('alert')).toBeInTheDocument();
  });
});
