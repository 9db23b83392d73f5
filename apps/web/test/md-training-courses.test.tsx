import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MSG } from '@trainlab/contract';
import { beforeEach, describe, expect, it } from 'vitest';
import { stubFetch } from './fetch-stub';
import { renderApp, signIn } from './render-app';

const COURSE = {
  id: 1,
  name: 'Kubernetes Basics',
  category: 2,
  category_name: 'Cloud',
  level: 'Beginner',
  duration: 3,
  duration_type: 'Days',
  price: 500,
};
const MODULE = { id: 7, name: 'Pods', course: 1, price: 100, duration: 2, topics: [{ id: 70, name: 'What is a pod' }] };

describe('training course screens', () => {
  beforeEach(() => signIn(['admin']));

  it('training course: topics are added only when non-empty, removable, and submitted then cleared', async () => {
    const net = stubFetch({
      'get-all-training-course-list': () => ({ body: { list: [COURSE] } }),
      'training-module-list': () => ({ body: { list: [MODULE] } }),
      'create-training-topic': () => ({ body: { message: MSG.recordAdded, ids: [1, 2] } }),
    });
    renderApp('/admin/create-training-course');
    const user = userEvent.setup();
    expect(await screen.findByRole('link', { name: /View Course/ })).toHaveAttribute(
      'href',
      '/admin/training-course-list',
    );
    const course = await screen.findByRole('combobox', { name: /^Course/ });
    await waitFor(() => expect(within(course).getByRole('option', { name: 'Kubernetes Basics' })).toBeInTheDocument());
    await user.selectOptions(course, 'Kubernetes Basics');
    const module = screen.getByRole('combobox', { name: /^Module/ });
    await waitFor(() => expect(within(module).getByRole('option', { name: 'Pods' })).toBeInTheDocument());
    expect(net.callsTo('training-module-list')[0]?.body).toEqual({ course_id: 1 });
    await user.selectOptions(module, 'Pods');

    await user.click(screen.getByRole('button', { name: 'Add Topic' }));
    expect(screen.getByText('Enter a topic name.')).toBeInTheDocument();
    const topic = screen.getByRole('textbox', { name: 'Topic name' });
    for (const t of ['Intro', 'Deploy', 'Scale']) {
      await user.type(topic, t);
      await user.click(screen.getByRole('button', { name: 'Add Topic' }));
    }
    await user.click(screen.getByRole('button', { name: 'Remove topic Deploy' }));
    expect(screen.getByText('Topics (2)')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() =>
      expect(net.callsTo('create-training-topic')[0]?.body).toEqual({
        course: 1,
        module: 7,
        topics: ['Intro', 'Scale'],
      }),
    );
    expect((await screen.findAllByText(MSG.recordAdded)).length).toBeGreaterThan(0);
    expect(screen.getByText('Topics (0)')).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: /^Course/ })).toHaveValue('');
  });

  it('training course: Add New course modal closes on success and selects the new course', async () => {
    let courses = [COURSE];
    const net = stubFetch({
      'get-all-training-course-list': () => ({ body: { list: courses } }),
      'training-module-list': () => ({ body: { list: [] } }),
      'category-list': () => ({ body: { list: [{ id: 2, name: 'Cloud', slug: 'cloud' }] } }),
      'create-training-course': (b) => {
        courses = [...courses, { ...COURSE, id: 9, name: String(b.name) }];
        return { body: { message: MSG.recordAdded, id: 9 } };
      },
    });
    renderApp('/admin/create-training-course');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Add New Course' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add New Course' });
    await user.type(within(dialog).getByRole('textbox', { name: /^Course name/ }), 'Terraform');
    const category = within(dialog).getByRole('combobox', { name: /^Category/ });
    await waitFor(() => expect(within(category).getByRole('option', { name: 'Cloud' })).toBeInTheDocument());
    await user.selectOptions(category, 'Cloud');
    await user.selectOptions(within(dialog).getByRole('combobox', { name: /^Level/ }), 'Advanced');
    await user.type(within(dialog).getByRole('textbox', { name: /^Duration/ }), '2');
    await user.selectOptions(within(dialog).getByRole('combobox', { name: /^Duration type/ }), 'Weeks');
    await user.type(within(dialog).getByRole('textbox', { name: /^Price/ }), '300');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(net.callsTo('create-training-course')[0]?.body).toEqual({
      name: 'Terraform',
      category: 2,
      level: 'Advanced',
      duration: '2',
      duration_type: 'Weeks',
      price: '300',
    });
    await waitFor(() => expect(screen.getByRole('combobox', { name: /^Course/ })).toHaveValue('9'));
  });

  it('training course list: View shows modules and topics; deleting a topic closes the popup and reloads', async () => {
    let topics = MODULE.topics;
    const net = stubFetch({
      'training-course-list': () => ({ body: { list: [{ ...COURSE, modules: [{ ...MODULE, topics }] }] } }),
      'delete-training-topic': () => {
        topics = [];
        return { body: { message: MSG.recordDeleted } };
      },
      'delete-training-course': () => ({ body: { message: MSG.courseDeleted } }),
    });
    renderApp('/admin/training-course-list');
    const user = userEvent.setup();
    expect(await screen.findByText('3 Days')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'View Kubernetes Basics' }));
    const popup = await screen.findByRole('dialog', { name: 'Kubernetes Basics' });
    expect(within(popup).getByText('Pods')).toBeInTheDocument();
    await user.click(within(popup).getByRole('button', { name: 'Delete topic What is a pod' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete topic' });
    await user.click(within(confirm).getByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(net.callsTo('delete-training-topic')[0]?.body).toEqual({ topic_id: 70 });
    await waitFor(() => expect(net.callsTo('training-course-list').length).toBeGreaterThan(1));

    await user.click(screen.getByRole('button', { name: 'Delete Kubernetes Basics' }));
    const confirmCourse = await screen.findByRole('dialog', { name: 'Delete course' });
    await user.click(within(confirmCourse).getByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(net.callsTo('delete-training-course')[0]?.body).toEqual({ course_id: 1 }));
    expect((await screen.findAllByText(MSG.courseDeleted)).length).toBeGreaterThan(0);
  });
});
