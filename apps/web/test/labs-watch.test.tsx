import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { LAB_SCHEDULE_MSG } from '@trainlab/contract';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { element, stub } from './excalidraw-stub';
import { FakeWebSocket } from './fake-websocket';
import { stubFetch } from './fetch-stub';
import { renderApp, signIn } from './render-app';

vi.mock('@excalidraw/excalidraw', () => import('./excalidraw-stub'));

/**
 * noVNC draws on a canvas jsdom does not have: a stand-in records how each viewer was made (the
 * pixels themselves are checked in the Chromium journey).
 */
const viewers = vi.hoisted(() => [] as { url: string; protocols?: string[]; viewOnly: boolean; closed: boolean }[]);
vi.mock('@novnc/novnc', () => ({
  default: class extends EventTarget {
    record: (typeof viewers)[number];
    scaleViewport = false;
    resizeSession = true;
    focusOnClick = true;
    background = '';
    constructor(_el: HTMLElement, url: string, opts: { wsProtocols?: string[] } = {}) {
      super();
      this.record = { url, protocols: opts.wsProtocols, viewOnly: false, closed: false };
      viewers.push(this.record);
      queueMicrotask(() => this.dispatchEvent(new CustomEvent('connect', { detail: {} })));
    }
    set viewOnly(v: boolean) {
      this.record.viewOnly = v;
    }
    disconnect() {
      this.record.closed = true;
    }
  },
}));

const link = (over: Record<string, unknown> = {}) => ({
  url: 'http://localhost/conference/ai-basics',
  provider: 'builtin',
  room: 'room-1',
  slug: 'ai-basics',
  ws_url: 'ws://localhost/ws/conference',
  ice_servers: [],
  isModerator: 1,
  status: 1,
  ...over,
});
const view = (over: Record<string, unknown> = {}) => ({
  user_id: 7,
  first_name: 'Meera',
  last_name: 'Iyer',
  vm_name: 'tl-aa',
  name: 'Ubuntu lab',
  status: 1,
  desktop: true,
  view_path: '/ws/labs/vnc/tl-aa?view=ai-basics',
  ...over,
});

beforeEach(() => {
  viewers.length = 0;
  FakeWebSocket.last = null;
  stub.reset();
  (globalThis as unknown as { WebSocket: unknown }).WebSocket = FakeWebSocket;
  void element;
});

describe('over-the-shoulder view in the conference room', () => {
  it('a moderator sees a view-only thumbnail per learner and opens one full size; Escape closes it', async () => {
    signIn(['trainer'], { token: 'tok-9' });
    const api = stubFetch({
      'get-meeting-link': () => ({ body: link() }),
      'training-lab-views': () => ({
        body: {
          slug: 'ai-basics',
          list: [
            view(),
            view({ user_id: 8, first_name: 'Ravi', vm_name: 'tl-bb', status: 2, desktop: false, view_path: null }),
          ],
        },
      }),
    });
    renderApp('/conference/ai-basics');
    const region = await screen.findByRole('region', { name: 'Learners’ labs' });
    const meera = await within(region).findByRole('img', { name: 'Meera Iyer’s lab desktop (view only)' });
    expect(meera).toBeInTheDocument();
    expect(api.callsTo('training-lab-views')[0]!.body).toEqual({ slug: 'ai-basics' });
    expect(viewers).toHaveLength(1);
    expect(viewers[0]).toMatchObject({
      url: 'ws://localhost:3000/ws/labs/vnc/tl-aa?view=ai-basics'.replace('localhost:3000', window.location.host),
      protocols: ['binary', 'auth.tok-9'],
      viewOnly: true,
    });
    expect(await within(region).findByText('Live')).toBeInTheDocument();
    // a stopped lab: no desktop, no full size
    expect(within(region).getByText('The lab is not running.')).toBeInTheDocument();
    expect(within(region).getByRole('button', { name: 'Open full size: Ravi Iyer’s desktop' })).toBeDisabled();

    const user = userEvent.setup();
    within(region).getByRole('button', { name: 'Open full size: Meera Iyer’s desktop' }).focus();
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: 'Meera Iyer · Ubuntu lab' });
    expect(
      within(dialog).getByRole('img', { name: 'Meera Iyer’s lab desktop, full size (view only)' }),
    ).toBeInTheDocument();
    expect(viewers).toHaveLength(2);
    expect(viewers[1]).toMatchObject({ viewOnly: true });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(viewers[1]!.closed).toBe(true));
  });

  it('empty and error states', async () => {
    signIn(['provider']);
    let fail = false;
    stubFetch({
      'get-meeting-link': () => ({ body: link() }),
      'training-lab-views': () =>
        fail ? { status: 500, body: { message: 'Server Error' } } : { body: { slug: 'ai-basics', list: [] } },
    });
    renderApp('/conference/ai-basics');
    const region = await screen.findByRole('region', { name: 'Learners’ labs' });
    expect(await within(region).findByText('No enrolled learner has a lab yet.')).toBeInTheDocument();
    fail = true;
    await userEvent.click(within(region).getByRole('button', { name: 'Refresh' }));
    expect(await within(region).findByRole('alert')).toBeInTheDocument();
  });

  it('learners never get the panel, nor ask for it', async () => {
    signIn(['user']);
    const api = stubFetch({ 'get-meeting-link': () => ({ body: link({ isModerator: 0 }) }) });
    renderApp('/conference/ai-basics');
    expect(await screen.findByRole('button', { name: 'Join meeting' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Learners’ labs' })).not.toBeInTheDocument();
    expect(api.callsTo('training-lab-views')).toHaveLength(0);
  });
});

const schedules = (list: unknown[] = []) => ({ slug: 'ai-basics', lead_minutes_default: 15, list });
const tie = {
  id: 3,
  vm_name: 'tl-aa',
  name: 'Ubuntu lab',
  lead_minutes: 10,
  lead_in_force: 10,
  grace_minutes: 5,
  labs: 1,
  next_start: '2026-12-03T09:50:00.000Z',
  next_stop: '2026-12-03T11:05:00.000Z',
  last_event: { action: 'start', at: '2026-12-02T09:50:00.000Z', vm_name: 'tl-aa', topic: 'Pods', outcome: null },
};

describe('labs on the training’s schedule (syllabus page)', () => {
  const common = {
    'get-training-details': () => ({ body: { success: { id: 1, name: 'AI Basics', slug: 'ai-basics' } } }),
    'get-training-syllabus': () => ({ body: { list: [] } }),
    'vm-list': () => ({
      body: { list: [{ id: 1, name: 'Ubuntu lab', vm_name: 'tl-aa' }], total: 1, page: 1, per_page: 100 },
    }),
  };

  it('shows the ties and their state; ties the learners’ labs with a lead time; unties', async () => {
    signIn(['provider']);
    let list: unknown[] = [tie];
    const api = stubFetch({
      ...common,
      'training-lab-schedules': () => ({ body: schedules(list) }),
      'tie-lab-to-training': () => ({ body: { message: LAB_SCHEDULE_MSG.tied } }),
      'untie-lab-from-training': () => {
        list = [];
        return { body: { message: LAB_SCHEDULE_MSG.untied } };
      },
    });
    renderApp('/training-syllabus/ai-basics');
    const table = await screen.findByRole('table', { name: 'Tied labs' });
    const row = within(table).getAllByTestId('lab-schedule-row')[0]!;
    expect(row).toHaveTextContent('Ubuntu lab (tl-aa)');
    expect(row).toHaveTextContent('10 min');
    expect(row).toHaveTextContent('Started tl-aa for Pods');
    expect(screen.getByText(/Default lead time: 15 minutes/)).toBeInTheDocument();

    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'Lead time (minutes)' }), '20');
    await user.click(screen.getByRole('button', { name: 'Tie to schedule' }));
    await waitFor(() => expect(api.callsTo('tie-lab-to-training')).toHaveLength(1));
    expect(api.callsTo('tie-lab-to-training')[0]!.body).toEqual({
      slug: 'ai-basics',
      vm_name: '',
      lead_minutes: 20,
      grace_minutes: 15,
    });

    await user.click(within(row).getByRole('button', { name: 'Untie Ubuntu lab (tl-aa)' }));
    await waitFor(() => expect(api.callsTo('untie-lab-from-training')[0]!.body).toEqual({ id: 3 }));
    expect(await screen.findByText('No lab is tied to this training.')).toBeInTheDocument();
  });

  it('a refusal lands under its field', async () => {
    signIn(['organization']);
    stubFetch({
      ...common,
      'training-lab-schedules': () => ({ body: schedules() }),
      'tie-lab-to-training': () => ({
        status: 422,
        body: { vm_name: [LAB_SCHEDULE_MSG.alreadyTied] },
      }),
    });
    renderApp('/training-syllabus/ai-basics');
    await userEvent.click(await screen.findByRole('button', { name: 'Tie to schedule' }));
    expect(await screen.findByText(LAB_SCHEDULE_MSG.alreadyTied)).toBeInTheDocument();
  });
});
