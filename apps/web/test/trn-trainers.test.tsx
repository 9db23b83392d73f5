import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { stubFetch } from './fetch-stub';
import { locationOf, renderApp, signIn } from './render-app';

const page = <T,>(list: T[]) => ({ body: { list, total: list.length, page: 1, per_page: 20 } });

describe('trainer dashboard', () => {
  it('/trainer-home shows waiting take calls, assigned trainings and profile completeness', async () => {
    signIn(['trainer']);
    stubFetch({
      'trainer-dashboard': () => ({
        body: {
          open_take_calls: [
            {
              take_call_id: 4,
              name: 'Kubernetes Basics',
              title: 'Intro call',
              start: '2030-01-02T10:00:00.000Z',
              end: '2030-01-02T11:00:00.000Z',
            },
          ],
          open_take_call_count: 1,
          assigned_trainings: [],
          profile_completeness: 63,
          profile_missing: ['PAN', 'Aadhar'],
        },
      }),
    });
    renderApp('/trainer-home');
    expect(await screen.findByRole('heading', { level: 1, name: 'Dashboard' })).toBeInTheDocument();
    const waiting = await screen.findByRole('region', { name: /Take calls waiting/ });
    expect(within(waiting).getByText('Intro call')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Profile 63% complete' })).toBeInTheDocument();
    expect(screen.getByText('Missing: PAN, Aadhar')).toBeInTheDocument();
    expect(screen.getByText('No training is assigned to you yet.')).toBeInTheDocument();
  });
});

describe('bank details', () => {
  it('lists accounts masked with an Edit link carrying the base64 id', async () => {
    signIn(['trainer']);
    stubFetch({
      'bank-details-list': () =>
        page([
          {
            id: 12,
            bank_name: 'State Bank of India',
            bank_address: null,
            bank_account_name: 'Tanvi Rao',
            account_number: 'XXXXXXXX9012',
            account_type: 'Savings',
            ifsc_code: 'SBIN0001234',
            micr_code: null,
            iban_code: null,
            bsr_code: null,
          },
        ]),
    });
    renderApp('/trainer/bank-details-list');
    expect((await screen.findAllByText('XXXXXXXX9012'))[0]).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: 'Edit State Bank of India' })[0]).toHaveAttribute(
      'href',
      `/trainer/update-bank-details/${btoa('12')}`,
    );
  });

  it('the add form shows IFSC upper-case and server 422 messages under the fields', async () => {
    signIn(['trainer']);
    const net = stubFetch({
      'add-bank-details': () => ({ status: 422, body: { ifsc_code: ['The ifsc code format is invalid.'] } }),
    });
    renderApp('/trainer/add-bank-details');
    const user = userEvent.setup();
    await user.type(await screen.findByRole('textbox', { name: /Bank Name/ }), 'SBI');
    await user.type(screen.getByRole('textbox', { name: /Account Name/ }), 'Tanvi');
    await user.type(screen.getByRole('textbox', { name: /Account Number/ }), '123456789012');
    await user.type(screen.getByRole('textbox', { name: /Account Type/ }), 'Savings');
    await user.type(screen.getByRole('textbox', { name: /IFSC Code/ }), 'sbin1001234');
    expect(screen.getByRole('textbox', { name: /IFSC Code/ })).toHaveValue('SBIN1001234');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('The ifsc code format is invalid.')).toBeInTheDocument();
    expect(net.callsTo('add-bank-details')[0]?.body).toMatchObject({ ifsc_code: 'SBIN1001234', bank_name: 'SBI' });
  });
});

describe('skills', () => {
  it('Add Skill waits for a category; a saved skill returns to the list', async () => {
    signIn(['trainer']);
    const net = stubFetch({
      'skill-categories': () => ({ body: { list: [{ id: 3, name: 'DevOps', slug: 'devops' }] } }),
      'get-skills': () => ({ body: { list: [{ id: 9, name: 'Kubernetes', category_id: 3 }] } }),
      'add-trainer-skill': () => ({ body: { message: 'Skill added successfully!', id: 1 } }),
      'trainer-skill-list': () => page([]),
    });
    const { router } = renderApp('/trainer/skill-add');
    const user = userEvent.setup();
    const addSkill = await screen.findByRole('button', { name: 'Add Skill' });
    expect(addSkill).toBeDisabled();
    await user.click(screen.getByRole('textbox', { name: /^Category/ }));
    await user.click(await screen.findByRole('option', { name: 'DevOps' }));
    expect(addSkill).toBeEnabled();
    await user.click(screen.getByRole('textbox', { name: /^Skill/ }));
    await user.click(await screen.findByRole('option', { name: 'Kubernetes' }));
    await user.type(screen.getByRole('textbox', { name: /^Experience/ }), '3');
    await user.type(screen.getByRole('textbox', { name: /Rate per hour/ }), '45');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(locationOf(router)).toBe('/trainer/skill-list'));
    expect(net.callsTo('add-trainer-skill')[0]?.body).toEqual({
      category_id: '3',
      skill_id: '9',
      experience: 3,
      type: 'Year',
      rate_per_hours: 45,
    });
  });
});

const CALL = {
  first_name: 'Priya',
  last_name: 'Provider',
  learning_provider: 'Priya Provider',
  name: 'Kubernetes Basics',
  title: 'Intro call',
  start: '2030-01-02T10:00:00.000Z',
  end: '2030-01-02T11:00:00.000Z',
  status: 0,
  propose_date1: null,
  propose_date2: null,
  propose_date3: null,
  remark: null,
  is_assing: 0,
  take_call_id: 4,
  take_call_detail_id: 7,
};

describe('trainer take calls', () => {
  it('lists with the spec status; Reschedule asks its first date, Available none (issue 41)', async () => {
    signIn(['trainer']);
    const net = stubFetch({
      'trainer-take-calls': () => page([CALL]),
      'reschedule-trainer-take-call': () => ({ body: { message: 'Take call answered.' } }),
    });
    renderApp('/trainer-take-calls');
    expect((await screen.findAllByText('Schedule'))[0]).toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(screen.getAllByRole('button', { name: 'Confirm Intro call' })[0]!);
    const dialog = await screen.findByRole('dialog', { name: 'Confirm Take Call' });
    expect(within(dialog).getByRole('textbox', { name: 'Call Title' })).toHaveAttribute('readonly');
    await user.click(within(dialog).getByRole('textbox', { name: /Select Status/ }));
    await user.click(await screen.findByRole('option', { name: 'Reschedule' }));
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
    expect(await within(dialog).findByText('The propose date1 field is required.')).toBeInTheDocument();
    expect(within(dialog).queryByText('The propose date3 field is required.')).toBeNull();
    expect(net.callsTo('reschedule-trainer-take-call')).toHaveLength(0);
    // Available: the call's own time suits; no date is demanded
    await user.click(within(dialog).getByRole('textbox', { name: /Select Status/ }));
    await user.click(await screen.findByRole('option', { name: 'Available' }));
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(net.callsTo('reschedule-trainer-take-call')).toHaveLength(1));
    expect(net.callsTo('reschedule-trainer-take-call')[0]?.body).toMatchObject({
      id: 7,
      status: 1,
      propose_date1: '',
      propose_date2: '',
      propose_date3: '',
    });
  });

  it('requirements: Confirm Requirement shows once one is selected and sends the ids', async () => {
    signIn(['trainer']);
    const net = stubFetch({
      'get-training-requirements': () => ({
        body: {
          list: [
            { trId: 21, requirement: 'A laptop', status: 0 },
            { trId: 22, requirement: 'Docker installed', status: 0 },
          ],
          take_call: CALL,
        },
      }),
      'update-training-requirement': () => ({ body: { message: 'Requirement confirmed successfully!' } }),
      'trainer-take-calls': () => page([CALL]),
    });
    const { router } = renderApp('/confirm-training-requirement/4');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('checkbox', { name: 'Docker installed' }));
    await user.click(screen.getByRole('button', { name: 'Confirm Requirement' }));
    await waitFor(() => expect(locationOf(router)).toBe('/trainer-take-calls'));
    // the tick was saved as it was made, then Confirm Requirement sent the spec's {ids}
    expect(net.callsTo('update-training-requirement').map((c) => c.body)).toEqual([
      { take_call_id: 4, ids: [22] },
      { ids: [22] },
    ]);
    expect(net.callsTo('get-training-requirements')[0]?.body).toEqual({ take_call_id: 4 });
  });

  it('requirements: each tick and untick is saved at once; a refused save shows its message and undoes the tick', async () => {
    signIn(['trainer']);
    let refuse = false;
    const net = stubFetch({
      'get-training-requirements': () => ({
        body: {
          list: [
            { trId: 21, requirement: 'A laptop', status: 1 },
            { trId: 22, requirement: 'Docker installed', status: 0 },
          ],
          take_call: CALL,
        },
      }),
      'update-training-requirement': () =>
        refuse
          ? { status: 422, body: { ids: ['The selected ids are invalid.'] } }
          : { body: { message: 'Requirement confirmed successfully!' } },
    });
    renderApp('/confirm-training-requirement/4');
    const user = userEvent.setup();
    const laptop = await screen.findByRole('checkbox', { name: 'A laptop' });
    expect(laptop).toBeChecked();
    await user.click(laptop);
    await waitFor(() =>
      expect(net.callsTo('update-training-requirement').map((c) => c.body)).toEqual([{ take_call_id: 4, ids: [] }]),
    );
    expect(laptop).not.toBeChecked();
    expect(screen.queryByRole('button', { name: 'Confirm Requirement' })).not.toBeInTheDocument();

    refuse = true;
    const docker = screen.getByRole('checkbox', { name: 'Docker installed' });
    await user.click(docker);
    expect(await screen.findByText('The selected ids are invalid.')).toBeInTheDocument();
    expect(net.callsTo('update-training-requirement')[1]?.body).toEqual({ take_call_id: 4, ids: [22] });
    expect(docker).not.toBeChecked();
  });
});

describe('manager take calls', () => {
  const answer = (over: Record<string, unknown>) => ({
    trainer_id: 1,
    first_name: 'Asha',
    last_name: 'Trainer',
    email: 'asha@example.test',
    propose_date1: '2030-01-03T10:00:00.000Z',
    propose_date2: '2030-01-04T10:00:00.000Z',
    propose_date3: '2030-01-05T10:00:00.000Z',
    status: 1,
    remark: 'Happy to',
    is_assing: 0,
    requirements_confirmed: 1,
    requirements_total: 2,
    ...over,
  });

  it('take-call trainers: Assign Trainers appears only with a selection, then back to /take-calls', async () => {
    signIn(['provider']);
    const net = stubFetch({
      'show-take-call-details': () => ({
        body: {
          ...page([
            answer({}),
            answer({ trainer_id: 2, first_name: 'Bala', status: 3, propose_date1: null, remark: 'Busy' }),
          ]).body,
          take_call: {
            id: 4,
            slug: 'c',
            name: 'Kubernetes Basics',
            training_slug: 'k',
            title: 'Intro call',
            start: CALL.start,
            end: CALL.end,
            status: 0,
            trainers: 2,
            answered: 2,
          },
        },
      }),
      'assign-trainer-to-training': () => ({ body: { message: 'Trainers assigned successfully!' } }),
      'show-take-call': () => page([]),
      'all-trainings': () => page([]),
    });
    const { router } = renderApp(`/take-call-trainers/${btoa('4')}`);
    expect((await screen.findAllByText('Availble'))[0]).toBeInTheDocument();
    expect(screen.getAllByText('Not Interested')[0]).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Assign Trainers' })).toBeNull();
    const user = userEvent.setup();
    await user.click(screen.getAllByRole('checkbox', { name: 'Select Asha Trainer' })[0]!);
    await user.click(screen.getByRole('button', { name: 'Assign Trainers' }));
    await waitFor(() => expect(locationOf(router)).toBe('/take-calls'));
    expect(net.callsTo('assign-trainer-to-training')[0]?.body).toEqual({ take_call_id: 4, trainer_ids: [1] });
    expect(net.callsTo('show-take-call-details')[0]?.body).toMatchObject({ id: 4 });
  });

  it('search tiles show the real skills; Create waits for a selection', async () => {
    signIn(['provider']);
    stubFetch({
      'skill-categories': () => ({ body: { list: [] } }),
      'get-training-details': () => ({ body: { success: { name: 'Kubernetes Basics' } } }),
      'get-trainer-list': () =>
        page([
          {
            id: 1,
            first_name: 'Asha',
            last_name: 'Trainer',
            base_location: 'Pune',
            experience_over_all: 8,
            rate_per_hours: 60,
            experience: 60,
            skills: [{ cname: 'DevOps', sname: 'Kubernetes', experience: 5, type: 'Year', rate_per_hours: 60 }],
          },
        ]),
    });
    renderApp('/trainer/take/call/kube');
    expect(await screen.findByText('Kubernetes · 5 Year · $60.00/h')).toBeInTheDocument();
    const create = screen.getByRole('button', { name: 'Create Take Call' });
    expect(create).toBeDisabled();
    await userEvent.setup().click(screen.getByRole('checkbox', { name: 'Asha Trainer' }));
    expect(create).toBeEnabled();
    expect(screen.getByRole('heading', { name: 'Create take call (1 selected)' })).toBeInTheDocument();
  });
});
