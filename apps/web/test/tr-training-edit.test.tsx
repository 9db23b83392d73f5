import { notifications } from '@mantine/notifications';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { stubFetch } from './fetch-stub';
import { renderApp, signIn } from './render-app';
import { trainingRow } from './training-fixtures';

/** /all-trainings → Edit (issue 32): the training's details before it starts, its assessments at any time. */

beforeEach(() => notifications.clean());

const TRAINING = trainingRow({ requirements: [] });

const STARTED = 'The training has already started: only its pre- and post-assessment can be switched on now.';

async function openEdit(name: string) {
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: `More actions for ${name}` }));
  await user.click(await screen.findByRole('menuitem', { name: 'Edit' }));
  return { user, dialog: await screen.findByRole('dialog', { name: `Edit ${name}` }) };
}

describe('editing a training', () => {
  it('sends only what changed; refusals show under their field and at the top; success closes', async () => {
    signIn(['provider']);
    let calls = 0;
    const net = stubFetch({
      'all-trainings': () => ({ body: { list: [TRAINING], total: 1, page: 1, per_page: 20 } }),
      'update-training': () => {
        calls += 1;
        if (calls === 1)
          return {
            status: 422,
            body: {
              number_of_participants: [
                'The training already has 4 learners enrolled; the number of participants cannot be lower.',
              ],
            },
          };
        if (calls === 2) return { status: 422, body: { slug: [STARTED] } };
        return {
          body: {
            message: 'Training updated successfully!',
            id: 7,
            slug: 'react-basics',
            cost: 400,
            pre_assessment: 1,
            post_assessment: 0,
          },
        };
      },
    });
    renderApp('/all-trainings');
    const { user, dialog } = await openEdit('React Basics');
    const name = await within(dialog).findByRole('textbox', { name: /^Name/ }, { timeout: 5000 });
    await user.clear(name);
    await user.type(name, 'React Advanced');
    const places = within(dialog).getByRole('textbox', { name: /Number Of Participants/ });
    await user.clear(places);
    await user.type(places, '2');
    await user.click(within(dialog).getByRole('checkbox', { name: 'Pre Assessment' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(
      await within(dialog).findByText(
        'The training already has 4 learners enrolled; the number of participants cannot be lower.',
      ),
    ).toBeInTheDocument();
    expect(net.callsTo('update-training')[0]!.body).toEqual({
      slug: 'react-basics',
      name: 'React Advanced',
      number_of_participants: 2,
      pre_assessment: 1,
    });
    // a refusal about the training itself (not one field) shows at the top of the form
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(STARTED);
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Training updated successfully!')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('a started training offers only the assessment switches', async () => {
    signIn(['organization']);
    const net = stubFetch({
      'all-trainings': () => ({ body: { list: [{ ...TRAINING, status: 1 }], total: 1, page: 1, per_page: 20 } }),
      'update-training': () => ({ status: 403, body: { message: 'This action is unauthorized.' } }),
    });
    renderApp('/all-trainings');
    const { user, dialog } = await openEdit('React Basics');
    expect(
      await within(dialog).findByText(
        /This training has started, so its details can no longer be changed/,
        {},
        { timeout: 5000 },
      ),
    ).toBeInTheDocument();
    expect(within(dialog).queryByRole('textbox', { name: /^Name/ })).toBeNull();
    await user.click(within(dialog).getByRole('checkbox', { name: 'Post Assessment' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('This action is unauthorized.');
    expect(net.callsTo('update-training')[0]!.body).toEqual({ slug: 'react-basics', post_assessment: 1 });
  });
});
