import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MSG } from '@trainlab/contract';
import { describe, expect, it } from 'vitest';
import { stubFetch } from './fetch-stub';
import { locationOf, renderApp, signIn } from './render-app';

const course = (over: Record<string, unknown> = {}) => ({
  id: 1,
  course_id: 1,
  slug: 'kube',
  name: 'Kubernetes Basics',
  amount: 499.5,
  is_paid: 1,
  is_public: 1,
  description: 'Pods, services and deployments explained.',
  topics: 2,
  learners: 1,
  ...over,
});
const paged = (list: unknown[]) => ({ body: { list, total: list.length, page: 1, per_page: 20 } });

const topic = (over: Record<string, unknown> = {}) => ({
  id: 11,
  slug: 'pods',
  name: 'Pods',
  description: 'What a pod is',
  url: '/api/course-media/tok/master.m3u8',
  poster: '/api/course-media/tok/poster.jpg',
  video_status: 'ready',
  video_error: null,
  duration: 64,
  seconds_watched: 0,
  last_position: 0,
  is_complete: 0,
  captions: [],
  transcript: null,
  ...over,
});

describe('/all-courses', () => {
  it('shows name, amount and the description cut to 25 characters plus ...; each row links to its screens', async () => {
    signIn(['provider']);
    stubFetch({ 'get-courses': () => paged([course()]) });
    renderApp('/all-courses');
    const table = await screen.findByRole('table');
    expect(await within(table).findByText('Kubernetes Basics')).toBeInTheDocument();
    expect(within(table).getByText('Pods, services and deploy...')).toBeInTheDocument();
    expect(within(table).getByText('₹499.5')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Start Kubernetes Basics' })).toHaveAttribute('href', '/course/kube');
    expect(screen.getByRole('link', { name: 'Edit Kubernetes Basics' })).toHaveAttribute('href', '/course-view/kube');
    expect(screen.getByRole('link', { name: 'Assign users to Kubernetes Basics' })).toHaveAttribute(
      'href',
      '/course/assign-to-users/kube',
    );
    expect(screen.getByRole('link', { name: 'Users of Kubernetes Basics' })).toHaveAttribute(
      'href',
      '/course/assign-users-list/kube',
    );
    expect(screen.getByRole('link', { name: 'Create course' })).toHaveAttribute('href', '/create-course');
  });

  it('an empty list says No Data Found', async () => {
    signIn(['organization']);
    stubFetch({ 'get-courses': () => paged([]) });
    renderApp('/all-courses');
    expect((await screen.findAllByText(MSG.noDataFound))[0]).toBeInTheDocument();
  });
});

describe('/create-course', () => {
  it('requires course, module, topic name and a video before uploading anything', async () => {
    signIn(['provider']);
    const net = stubFetch({ 'get-courses': () => paged([course()]) });
    renderApp('/create-course');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Save' }));
    expect(await screen.findByText('The course field is required.')).toBeInTheDocument();
    expect(screen.getByText('The name field is required.')).toBeInTheDocument();
    expect(screen.getByText('The course url field is required.')).toBeInTheDocument();
    expect(net.callsTo('create-all-course')).toHaveLength(0);
  });

  it('Add New creates a course in a popup and selects it; server errors show per field', async () => {
    signIn(['provider']);
    let created = false;
    const net = stubFetch({
      'get-courses': () => paged(created ? [course(), course({ id: 2, slug: 'docker', name: 'Docker' })] : [course()]),
      'get-modules': () => ({ body: { list: [] } }),
      'create-course': (body) => {
        if (body.name === 'Taken') return { status: 422, body: { amount: ['The amount must be at least 0.'] } };
        created = true;
        return { body: { message: 'Record Added Successfully!', id: 2, slug: 'docker' } };
      },
    });
    renderApp('/create-course');
    const user = userEvent.setup();
    await user.click((await screen.findAllByRole('button', { name: 'Add New' }))[0]!);
    const dialog = await screen.findByRole('dialog', { name: 'Add New Course' });
    await user.type(within(dialog).getByRole('textbox', { name: /Course Name/ }), 'Taken');
    await user.type(within(dialog).getByRole('textbox', { name: /Course Amount/ }), '5');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('The amount must be at least 0.')).toBeInTheDocument();
    await user.clear(within(dialog).getByRole('textbox', { name: /Course Name/ }));
    await user.type(within(dialog).getByRole('textbox', { name: /Course Name/ }), 'Docker');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(net.callsTo('create-course')).toHaveLength(2));
    expect(net.callsTo('create-course')[1]!.body).toMatchObject({
      name: 'Docker',
      amount: 5,
      is_paid: 0,
      is_public: 0,
    });
    await waitFor(() => expect(screen.getByRole('textbox', { name: /^Course/ })).toHaveValue('Docker'));
  });
});

describe('/user/courses/list', () => {
  it('shows Assigned, Completed and Enrolled with the real percentage; Play goes to the player', async () => {
    signIn(['provider_user']);
    const c = (over: Record<string, unknown>) => ({
      id: 1,
      name: 'Kubernetes Basics',
      slug: 'kube',
      description: null,
      start_date: '2030-01-01T00:00:00.000Z',
      end_date: '2030-02-01T00:00:00.000Z',
      is_complete: 0,
      percentage: 37,
      available: true,
      ...over,
    });
    stubFetch({
      'get-user-courses': () => ({
        body: {
          assigned: [c({})],
          completed: [c({ id: 2, name: 'Docker', slug: 'docker', is_complete: 1, percentage: 100 })],
          enrolled: [],
        },
      }),
    });
    const { router } = renderApp('/user/courses/list');
    const assigned = await screen.findByRole('region', { name: 'Assigned' });
    expect(within(assigned).getByText('37% completed')).toBeInTheDocument();
    const completed = screen.getByRole('region', { name: 'Completed' });
    expect(within(completed).getByText('100% completed')).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'Enrolled' })).getByText(MSG.noDataFound)).toBeInTheDocument();
    await userEvent.setup().click(within(assigned).getByRole('link', { name: 'Play Kubernetes Basics' }));
    await waitFor(() => expect(locationOf(router)).toBe('/course/kube'));
  });

  it('a refused learner sees the reason the server gives (other roles never reach the screen: open-screens-by-role)', async () => {
    signIn(['user']);
    stubFetch({ 'get-user-courses': () => ({ status: 403, body: { message: 'You are not allowed to do this.' } }) });
    renderApp('/user/courses/list');
    expect(await screen.findByRole('alert')).toHaveTextContent('You are not allowed to do this.');
    expect(screen.queryByText(MSG.somethingWentWrong)).not.toBeInTheDocument();
  });
});

describe('/course/{slug}', () => {
  it('lists modules and topics, starts at the first incomplete topic, moves with previous and next', async () => {
    signIn(['provider_user']);
    stubFetch({
      'play-course-data': () => ({
        body: {
          course: { id: 1, name: 'Kubernetes Basics', slug: 'kube' },
          percentage: 40,
          data: [
            {
              id: 1,
              name: 'Getting started',
              topics: [
                topic({ is_complete: 1 }),
                topic({ id: 12, slug: 'svc', name: 'Services', description: 'Talking to pods' }),
              ],
            },
            {
              id: 2,
              name: 'Deeper',
              topics: [topic({ id: 13, slug: 'ing', name: 'Ingress', video_status: 'processing', url: null })],
            },
          ],
        },
      }),
    });
    renderApp('/course/kube');
    expect(await screen.findByRole('heading', { name: 'Kubernetes Basics' })).toBeInTheDocument();
    expect(screen.getByText('40% completed')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Services' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Services/ })).toHaveAttribute('aria-current', 'true');
    expect(screen.getByLabelText('Completed')).toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText(/The video is being processed/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Previous' }));
    await user.click(screen.getByRole('button', { name: 'Previous' }));
    expect(screen.getByRole('heading', { name: 'Pods' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();
  });

  it('a pause saves where the learner stopped, even with nothing played since the last report', async () => {
    signIn(['provider_user']);
    const api = stubFetch({
      'play-course-data': () => ({
        body: {
          course: { id: 1, name: 'Kubernetes Basics', slug: 'kube' },
          percentage: 0,
          data: [{ id: 1, name: 'Getting started', topics: [topic()] }],
        },
      }),
      'course-progress': () => ({ body: { seconds_watched: 0, last_position: 42, is_complete: 0, percentage: 0 } }),
    });
    renderApp('/course/kube');
    const video = await screen.findByTestId('course-video');
    Object.defineProperty(video, 'currentTime', { value: 42.6, configurable: true });
    fireEvent(video, new Event('pause'));
    await waitFor(() => expect(api.callsTo('course-progress')).toHaveLength(1));
    expect(api.callsTo('course-progress')[0]?.body).toEqual({ slug: 'pods', watched: 0, position: 42 });
  });

  it('outside the assignment window it says so', async () => {
    signIn(['provider_user']);
    stubFetch({
      'play-course-data': () => ({
        status: 403,
        body: { message: 'This course is not available to you at this time.' },
      }),
    });
    renderApp('/course/kube');
    expect(await screen.findByText('This course is not available to you at this time.')).toBeInTheDocument();
  });
});
