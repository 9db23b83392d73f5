import { notifications } from '@mantine/notifications';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MSG } from '@trainlab/contract';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { stubFetch } from './fetch-stub';
import { locationOf, renderApp, signIn } from './render-app';
import { trainingRow } from './training-fixtures';

beforeEach(() => notifications.clean());

function row(name: string): HTMLElement {
  const found = screen.queryAllByRole('row').find((r) => within(r).queryByText(name));
  if (!found) throw new Error(`no row ${name}`);
  return found;
}

const TRAINING = trainingRow({ pre_assessment: 1, totalTopics: 2, is_public: 1 });
const TOPIC = {
  id: 41,
  session_topic: 'Hooks',
  start_time: null,
  end_time: null,
  no_of_min: 0,
  rating: null,
  status: 0,
  recording_url: null,
};

describe('training users and trainers', () => {
  it('add training user shows 422 under email, then sends the slug and goes to the users list', async () => {
    signIn(['provider']);
    let attempt = 0;
    const net = stubFetch({
      'lp/add-training-user': () =>
        ++attempt === 1
          ? { status: 422, body: { email: [MSG.trainingUserExists] } }
          : { body: { message: MSG.trainingUserAdded, id: 1, user_id: 2 } },
      'lp/get-training-users': () => ({ body: { list: [] } }),
    });
    const { router } = renderApp('/add-training-user/react-basics');
    const user = userEvent.setup();
    expect(await screen.findByRole('button', { name: 'Download template' })).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: /^First Name/ }), 'Asha');
    await user.type(screen.getByRole('textbox', { name: /^Last Name/ }), 'Verma');
    await user.type(screen.getByRole('textbox', { name: /^Email/ }), 'asha@demo.test');
    await user.type(screen.getByRole('textbox', { name: /^Mobile No/ }), '9876543210');
    await user.click(screen.getByRole('button', { name: 'Add User' }));
    expect(await screen.findByText(MSG.trainingUserExists)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Add User' }));
    await waitFor(() => expect(locationOf(router)).toBe('/show-training-users/react-basics'));
    expect(await screen.findByText(MSG.trainingUserAdded)).toBeInTheDocument();
    expect(net.callsTo('lp/add-training-user')[1]?.body).toEqual({
      first_name: 'Asha',
      last_name: 'Verma',
      email: 'asha@demo.test',
      mobile_no: '9876543210',
      slug: 'react-basics',
    });
  });

  it('add training user: picking an existing learner searches the tenant and fills the form', async () => {
    signIn(['provider']);
    const net = stubFetch({
      'get-tenant-learners': (body) => ({
        body: {
          list:
            body.search === 'meena'
              ? [{ id: 9, first_name: 'Meena', last_name: 'Iyer', email: 'meena@demo.test', mobile_no: '9000000003' }]
              : [],
          total: body.search === 'meena' ? 1 : 0,
          page: 1,
          per_page: 20,
        },
      }),
      'lp/add-training-user': () => ({ body: { message: MSG.trainingUserAdded, id: 1, user_id: 9 } }),
      'lp/get-training-users': () => ({ body: { list: [] } }),
    });
    const { router } = renderApp('/add-training-user/react-basics');
    const user = userEvent.setup();
    await user.type(await screen.findByRole('textbox', { name: /Pick an existing learner/ }), 'meena');
    await user.click(await screen.findByRole('option', { name: 'Meena Iyer (meena@demo.test)' }));
    expect(screen.getByRole('textbox', { name: /^First Name/ })).toHaveValue('Meena');
    expect(screen.getByRole('textbox', { name: /^Last Name/ })).toHaveValue('Iyer');
    expect(screen.getByRole('textbox', { name: /^Email/ })).toHaveValue('meena@demo.test');
    expect(screen.getByRole('textbox', { name: /^Mobile No/ })).toHaveValue('9000000003');
    expect(net.callsTo('get-tenant-learners').at(-1)?.body).toEqual({ search: 'meena', per_page: 20 });
    await user.click(screen.getByRole('button', { name: 'Add User' }));
    await waitFor(() => expect(locationOf(router)).toBe('/show-training-users/react-basics'));
    expect(net.callsTo('lp/add-training-user')[0]?.body).toEqual({
      first_name: 'Meena',
      last_name: 'Iyer',
      email: 'meena@demo.test',
      mobile_no: '9000000003',
      slug: 'react-basics',
    });
  });

  it('assign trainer preselects the current trainers and saves the ids', async () => {
    signIn(['provider']);
    const T1 = { id: 3, first_name: 'Tara', last_name: 'Trainer', email: 'tara@demo.test' };
    const T2 = { id: 4, first_name: 'Tom', last_name: 'Teach', email: 'tom@demo.test' };
    const net = stubFetch({
      'get-trainers-for-assignment': () => ({ body: { list: [T1, T2] } }),
      'get-training-trainers': () => ({ body: { list: [T1] } }),
      'assign-trainers-to-training': () => ({ body: { message: 'Trainers assigned successfully!' } }),
      'all-trainings': () => ({ body: { list: [] } }),
    });
    const { router } = renderApp('/assing/trainer/react-basics');
    const user = userEvent.setup();
    expect((await screen.findAllByText('Tara Trainer (tara@demo.test)')).length).toBeGreaterThan(0);
    await user.click(screen.getByRole('textbox', { name: 'Trainers' }));
    await user.click(await screen.findByRole('option', { name: 'Tom Teach (tom@demo.test)' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(locationOf(router)).toBe('/all-trainings'));
    expect(net.callsTo('assign-trainers-to-training')[0]?.body).toEqual({ slug: 'react-basics', trainer_ids: [3, 4] });
    expect(await screen.findByText('Trainers assigned successfully!')).toBeInTheDocument();
  });
});

describe('syllabus, attendance, details', () => {
  it('Start advances the topic and opens the conference; Delete asks first; Attendance links by base64 id', async () => {
    signIn(['provider']);
    const open = vi.fn();
    vi.stubGlobal('open', open);
    let status = 0;
    const net = stubFetch({
      'get-training-details': () => ({ body: { success: TRAINING } }),
      'get-training-syllabus': () => ({
        body: {
          list: [
            { ...TOPIC, status },
            { ...TOPIC, id: 42, session_topic: 'State', rating: 4.5, status: 2 },
          ],
        },
      }),
      'update-training-start-status': () => {
        status += 1;
        return { body: { message: 'Topic status updated successfully!', status } };
      },
      'delete-training-syllabus': () => ({ body: { message: 'Record deleted successfully!' } }),
      'all-trainings': () => ({ body: { list: [] } }),
    });
    renderApp('/training-syllabus/react-basics');
    const user = userEvent.setup();
    const hooks = await waitFor(() => row('Hooks'));
    expect(within(hooks).getByText('Schedule')).toBeInTheDocument();
    expect(within(row('State')).getByText('Completed')).toBeInTheDocument();
    expect(within(row('State')).queryByRole('button', { name: 'Delete State' })).not.toBeInTheDocument();
    await waitFor(() =>
      expect(within(row('Hooks')).getByRole('link', { name: 'Attendance of Hooks' })).toHaveAttribute(
        'href',
        `/training-attendance/${btoa('7')}`,
      ),
    );
    expect(screen.getByRole('link', { name: 'Add Topic' })).toHaveAttribute(
      'href',
      '/add-training-syllabus/react-basics',
    );

    await user.click(within(hooks).getByRole('button', { name: 'Delete Hooks' }));
    await user.click(await screen.findByRole('button', { name: 'No' }));
    expect(net.callsTo('delete-training-syllabus')).toHaveLength(0);

    await user.click(within(row('Hooks')).getByRole('button', { name: 'Start Hooks' }));
    await waitFor(() => expect(open).toHaveBeenCalledWith('/conference/react-basics', '_blank'));
    expect(net.callsTo('update-training-start-status')[0]?.body).toEqual({ id: 41 });
    await waitFor(() => expect(within(row('Hooks')).getByText('Starting')).toBeInTheDocument());
    await user.click(within(row('Hooks')).getByRole('button', { name: 'Complete Hooks' }));
    await waitFor(() => expect(within(row('Hooks')).getByText('Completed')).toBeInTheDocument());
    expect(open).toHaveBeenCalledTimes(1);
  });

  it('attendance decodes the base64 id and lists the rows', async () => {
    signIn(['organization']);
    const net = stubFetch({
      'training-attendances-details': () => ({
        body: {
          list: [
            {
              user_id: 2,
              first_name: 'Asha',
              last_name: 'Verma',
              session_topic: 'Hooks',
              start_time: '2030-01-10T09:05:00.000Z',
              end_time: null,
              minutes: 0,
              rating: 4,
            },
            {
              user_id: 3,
              first_name: 'Ravi',
              last_name: 'Kumar',
              session_topic: 'Hooks',
              start_time: '2030-01-10T09:00:00.000Z',
              end_time: '2030-01-10T09:47:30.000Z',
              minutes: 47,
              rating: null,
            },
          ],
        },
      }),
    });
    renderApp(`/training-attendance/${btoa('7')}`);
    expect(await screen.findByText('Asha')).toBeInTheDocument();
    expect(screen.getByText('4.0')).toBeInTheDocument();
    // the server-measured minutes of each row
    const ravi = screen.getByText('Ravi').closest('tr') as HTMLElement;
    expect(within(ravi).getByText('47')).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: 'Minutes' })).toBeInTheDocument();
    expect(net.callsTo('training-attendances-details')[0]?.body).toEqual({ id: 7 });
  });

  it('details page lists topics with Play recording; the recording page says not available without one', async () => {
    signIn(['provider']);
    stubFetch({
      'get-training-details': () => ({ body: { success: TRAINING } }),
      'get-training-syllabus': () => ({
        body: {
          list: [
            { ...TOPIC, recording_url: 'https://cdn.example/rec.mp4' },
            { ...TOPIC, id: 42, session_topic: 'State' },
          ],
        },
      }),
    });
    const { router } = renderApp('/training-details/react-basics');
    const user = userEvent.setup();
    expect(await screen.findByRole('heading', { name: 'React Basics' })).toBeInTheDocument();
    expect(screen.getByText('Laptop')).toBeInTheDocument();
    const play = await screen.findByRole('link', { name: 'Play recording of Hooks' });
    expect(play).toHaveAttribute('href', `/recording/${btoa('41')}`);
    expect(within(row('State')).getByText('No recording')).toBeInTheDocument();
    await user.click(play);
    await waitFor(() => expect(locationOf(router)).toBe(`/recording/${btoa('41')}`));
    expect(await screen.findByLabelText('Recording')).toHaveAttribute('src', 'https://cdn.example/rec.mp4');
  });

  it('a recording link opened directly shows Recording Not Available', async () => {
    renderApp(`/recording/${btoa('41')}`);
    stubFetch();
    expect(await screen.findByText(MSG.recordingNotAvailable)).toBeInTheDocument();
  });

  it('provider dashboard shows the counts and the upcoming list', async () => {
    signIn(['provider']);
    stubFetch({
      'get-dashboard-data': () => ({
        body: {
          list: [
            {
              id: 7,
              name: 'React Basics',
              slug: 'react-basics',
              start_date: TRAINING.start_date,
              end_date: TRAINING.end_date,
            },
          ],
          total_trainings: 5,
          upcoming_trainings: 2,
          completed_trainings: 3,
          total_participants: 40,
        },
      }),
    });
    renderApp('/learning-provider');
    expect(await screen.findByText('React Basics')).toBeInTheDocument();
    expect(screen.getByLabelText('Total Participants')).toHaveTextContent('40');
    expect(screen.getByRole('link', { name: 'Syllabus of React Basics' })).toHaveAttribute(
      'href',
      '/training-syllabus/react-basics',
    );
    expect(screen.getAllByRole('link', { name: 'Create Training' })[0]).toHaveAttribute('href', '/create-training');
  });

  it('trainer sees assigned trainings and the syllabus in a dialog without Delete', async () => {
    signIn(['trainer']);
    stubFetch({
      'trainer/assigned-trainings': () => ({ body: { list: [TRAINING] } }),
      'get-training-syllabus': () => ({ body: { list: [TOPIC] } }),
    });
    renderApp('/trainer/assigned-trainings');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'View syllabus of React Basics' }));
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByText('Hooks')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Start Hooks' })).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Delete Hooks' })).not.toBeInTheDocument();
  });
});
