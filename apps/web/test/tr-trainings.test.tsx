import { notifications } from '@mantine/notifications';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MSG } from '@trainlab/contract';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { minutesLabel } from '../src/features/trainings/shared';
import { stubFetch } from './fetch-stub';
import { locationOf, renderApp, signIn } from './render-app';
import { trainingRow } from './training-fixtures';

const TRAINING = trainingRow();

// the toast store is global and shows 3 at a time: start each test with none
beforeEach(() => notifications.clean());

function row(name: string): HTMLElement {
  const found = screen.queryAllByRole('row').find((r) => within(r).queryByText(name));
  if (!found) throw new Error(`no row ${name}`);
  return found;
}

describe('upcoming trainings', () => {
  it('lists trainings; Make Public toggles by id with a toast and the label alternates', async () => {
    signIn(['provider']);
    let isPublic = 0;
    const net = stubFetch({
      'all-trainings': () => ({
        body: {
          list: [
            { ...TRAINING, is_public: isPublic },
            { ...TRAINING, id: 8, name: 'Started', slug: 's', status: 1 },
          ],
        },
      }),
      'lp-public-training': () => {
        isPublic = 1;
        return { body: { message: MSG.trainingPublic, is_public: 1 } };
      },
    });
    renderApp('/all-trainings');
    const user = userEvent.setup();
    expect(await screen.findByText('React Basics')).toBeInTheDocument();
    expect(within(row('React Basics')).getByText('Not Public')).toBeInTheDocument();
    expect(within(row('React Basics')).getByRole('link', { name: 'meet-abc' })).toHaveAttribute(
      'href',
      '/conference/react-basics',
    );
    await user.click(screen.getByRole('button', { name: 'More actions for React Basics' }));
    expect(await screen.findByRole('menuitem', { name: 'Delete' })).toBeInTheDocument();
    await user.click(screen.getByRole('menuitem', { name: 'Make Public' }));
    expect(await screen.findByText(MSG.trainingPublic)).toBeInTheDocument();
    expect(net.callsTo('lp-public-training')[0]?.body).toEqual({ id: 7 });
    await waitFor(() => expect(within(row('React Basics')).getByText('Public')).toBeInTheDocument());
    await user.click(screen.getByRole('button', { name: 'More actions for React Basics' }));
    expect(await screen.findByRole('menuitem', { name: 'Stop Public' })).toBeInTheDocument();
    // a started training (status 1) offers no Delete
    await user.keyboard('{Escape}');
    await user.click(screen.getByRole('button', { name: 'More actions for Started' }));
    await screen.findByRole('menuitem', { name: 'Make Public' });
    expect(screen.queryByRole('menuitem', { name: 'Delete' })).not.toBeInTheDocument();
  });

  it('delete asks first and sends the slug; copy puts a greeting and the public URL on the clipboard', async () => {
    signIn(['organization']);
    const net = stubFetch({
      'all-trainings': () => ({ body: { list: [TRAINING] } }),
      'delete-trainings': () => ({ body: { message: MSG.trainingDeleted } }),
    });
    renderApp('/all-trainings');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'More actions for React Basics' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Copy Meeting Link' }));
    expect(await screen.findByText(MSG.trainingLinkCopied)).toBeInTheDocument();
    // user-event provides the clipboard
    expect(await navigator.clipboard.readText()).toMatch(/^Hello,[\s\S]*\/public\/conference\/meet-abc$/);
    await user.click(screen.getByRole('button', { name: 'More actions for React Basics' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    expect(net.callsTo('delete-trainings')).toHaveLength(0);
    await user.click(await screen.findByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(net.callsTo('delete-trainings')[0]?.body).toEqual({ slug: 'react-basics' }));
    expect(await screen.findByText(MSG.trainingDeleted)).toBeInTheDocument();
  });

  it('Start goes to the syllabus when the training has topics, else opens the conference', async () => {
    signIn(['provider']);
    const open = vi.fn();
    vi.stubGlobal('open', open);
    stubFetch({
      'all-trainings': () => ({
        body: { list: [TRAINING, { ...TRAINING, id: 9, name: 'With Topics', slug: 'wt', totalTopics: 2 }] },
      }),
      'get-training-details': () => ({ body: { success: { ...TRAINING, slug: 'wt' } } }),
      'get-training-syllabus': () => ({ body: { list: [] } }),
    });
    const { router } = renderApp('/all-trainings');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Start React Basics' }));
    expect(open).toHaveBeenCalledWith('/conference/react-basics', '_blank');
    await user.click(screen.getByRole('button', { name: 'Start With Topics' }));
    await waitFor(() => expect(locationOf(router)).toBe('/training-syllabus/wt'));
  });

  it('shows No Data Found for an empty list and the error text on failure', async () => {
    signIn(['provider']);
    stubFetch({ 'all-trainings': () => ({ body: { list: [] } }) });
    renderApp('/all-trainings');
    expect((await screen.findAllByText('No Data Found')).length).toBeGreaterThan(0);
  });
});

describe('create training', () => {
  it('prices the Cost tab, shows 422 under the field, then sends the body and goes to /all-trainings', async () => {
    signIn(['provider']);
    let attempt = 0;
    const net = stubFetch({
      'get-services-price': () => ({
        body: {
          list: [
            { service: 'TRAINING (Per Day)', price: 100 },
            { service: 'PRE-ASSESSMENT (Per Test)', price: 5 },
            { service: 'POST-ASSESSMENT (Per Test)', price: 7 },
          ],
        },
      }),
      'create-training': () =>
        ++attempt === 1
          ? {
              status: 422,
              body: { name: ['The name field is required.'], start_date: ['The start date field is required.'] },
            }
          : { body: { message: MSG.trainingCreated, id: 1, slug: 'x', link: 'l', cost: 0 } },
      'all-trainings': () => ({ body: { list: [] } }),
    });
    const { router } = renderApp('/create-training');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Create Training' }));
    expect(await screen.findByText('The name field is required.')).toBeInTheDocument();
    expect(screen.getByText('The start date field is required.')).toBeInTheDocument();

    await user.type(screen.getByRole('textbox', { name: /^Name/ }), 'Go 101');
    const days = screen.getByRole('textbox', { name: /^Total Training Day/ });
    await user.clear(days);
    await user.type(days, '2');
    const people = screen.getByRole('textbox', { name: /^Number Of Participants/ });
    await user.clear(people);
    await user.type(people, '10');
    await user.type(screen.getByRole('textbox', { name: /^Description/ }), 'Learn Go');
    // a blank requirement is not added; a real one is, and can be deleted
    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(screen.queryByRole('list', { name: 'Requirements' })).not.toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: 'Requirement' }), 'Laptop');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    await user.type(screen.getByRole('textbox', { name: 'Requirement' }), 'Internet');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    await user.click(screen.getByRole('button', { name: 'Delete requirement Internet' }));
    await user.click(screen.getByRole('checkbox', { name: 'Pre Assessment' }));

    await user.click(screen.getByRole('tab', { name: 'Cost' }));
    const cost = await screen.findByRole('table', { name: 'Training cost' });
    expect(within(cost).getByText('TRAINING (Per Day)')).toBeInTheDocument();
    expect(within(cost).getByText('PRE-ASSESSMENT (Per Test)')).toBeInTheDocument();
    expect(within(cost).queryByText('POST-ASSESSMENT (Per Test)')).not.toBeInTheDocument();
    // in rupees, with the one formatter (issue 41: '500.00' had no currency)
    expect(within(cost).getByTestId('cost-total')).toHaveTextContent('₹250.00');

    await user.click(screen.getByRole('button', { name: 'Create Training' }));
    await waitFor(() => expect(locationOf(router)).toBe('/all-trainings'));
    expect(await screen.findByText(MSG.trainingCreated)).toBeInTheDocument();
    // the ticked Pre Assessment leads to its builder (issue 41: it led nowhere)
    expect(await screen.findByText('Next: the Pre Assessment of Go 101')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Build the assessment' })).toHaveAttribute('href', '/assessment/add/x');
    expect(net.callsTo('create-training')[1]?.body).toEqual({
      name: 'Go 101',
      start_date: '',
      end_date: '',
      total_training_day: 2,
      number_of_participants: 10,
      description: 'Learn Go',
      requirements: ['Laptop'],
      pre_assessment: true,
      post_assessment: false,
    });
  });
});

describe('completed training users', () => {
  const U = {
    id: 31,
    training_id: 7,
    user_id: 12,
    user_name: 'asha@demo.test',
    name: 'Asha Verma',
    first_name: 'Asha',
    last_name: 'Verma',
    email: 'asha@demo.test',
    mobile_no: null,
    start_date: TRAINING.start_date,
    end_date: TRAINING.end_date,
    join: 1,
    min: 130,
    send_email_certificate: 0,
    is_download_certificate: 0,
  };

  it('minutes show whole hours only above 60', () => {
    expect(minutesLabel(130)).toBe('2 hr');
    expect(minutesLabel(61)).toBe('1 hr');
    expect(minutesLabel(60)).toBe('0');
    expect(minutesLabel(45)).toBe('0');
    expect(minutesLabel(0)).toBe('0');
  });

  it('lists join and minutes; toggles the certificate by id and sends the e-mail by t_id/u_id', async () => {
    signIn(['provider']);
    let cert = 0;
    const net = stubFetch({
      'lp/get-training-users': (b) => ({
        body: {
          list:
            b.slug === 'react-basics'
              ? [
                  { ...U, is_download_certificate: cert },
                  { ...U, id: 32, user_id: 13, user_name: 'bo@demo.test', name: 'Bo Li', join: 0, min: 45 },
                ]
              : [],
        },
      }),
      'lpu/download-certificate-access': () => {
        cert = 1;
        return { body: { message: 'Certificate download access: YES', is_download_certificate: 1 } };
      },
      'lpu/send-certificate-email': () => ({ body: { message: 'Certificate e-mail is being sent.' } }),
    });
    renderApp('/completed-training-users/react-basics');
    const user = userEvent.setup();
    expect(await screen.findByRole('heading', { name: 'Completed Training User' })).toBeInTheDocument();
    const asha = await waitFor(() => row('Asha Verma'));
    expect(within(asha).getByText('Joined')).toBeInTheDocument();
    expect(within(asha).getByText('2 hr')).toBeInTheDocument();
    const bo = row('Bo Li');
    expect(within(bo).getByText('Not joined')).toBeInTheDocument();
    expect(within(bo).getByText('0')).toBeInTheDocument();

    const toggle = within(asha).getByRole('switch', { name: 'Certificate download for Asha Verma' });
    expect(toggle).not.toBeChecked();
    await user.click(toggle);
    await waitFor(() => expect(net.callsTo('lpu/download-certificate-access')).toHaveLength(1));
    expect(await screen.findByText('Certificate download access: YES')).toBeInTheDocument();
    expect(net.callsTo('lpu/download-certificate-access')[0]?.body).toEqual({ id: 31 });
    await waitFor(() => expect(within(row('Asha Verma')).getByRole('switch')).toBeChecked());

    await user.click(within(row('Asha Verma')).getByRole('button', { name: 'Send certificate to Asha Verma' }));
    expect(await screen.findByText('Certificate e-mail is being sent.')).toBeInTheDocument();
    expect(net.callsTo('lpu/send-certificate-email')[0]?.body).toEqual({ t_id: 7, u_id: 12 });
  });
});
