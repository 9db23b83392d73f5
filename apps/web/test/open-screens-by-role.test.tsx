import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MSG, type Role } from '@trainlab/contract';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { stub } from './excalidraw-stub';
import { stubFetch } from './fetch-stub';
import { locationOf, renderApp, signIn } from './render-app';

// only the third-party editor is replaced (its canvas does not run in jsdom)
vi.mock('@excalidraw/excalidraw', () => import('./excalidraw-stub'));
beforeEach(() => stub.reset());

const TRAINING = { slug: 'kube-basics', name: 'Kubernetes Basics' };

describe('an open screen of another role', () => {
  it.each([
    ['provider_user', '/training-details/kube-basics', '/user/training-details/kube-basics'],
    ['trainer', '/user/training-details/kube-basics', '/training-details/kube-basics'],
    ['organization', '/user/courses/list', '/all-courses'],
  ] as [Role, string, string][])('%s at %s lands on its own screen for it: %s', async (role, from, to) => {
    signIn([role]);
    stubFetch({}, { unknown: 'pending' });
    const { router } = renderApp(from);
    await waitFor(() => expect(locationOf(router)).toBe(to));
    expect(screen.queryByText(MSG.notAuthorized)).toBeNull();
  });

  it.each([
    ['admin', '/my-trainings'],
    ['admin', '/white-board'],
    ['admin', '/vm/demo-lab'],
    ['trainer', '/user/courses/list'],
    ['trainer', '/course/docker-basics'],
  ] as [Role, string][])('%s at %s, a screen it has no counterpart of, is not authorized', async (role, path) => {
    signIn([role]);
    const net = stubFetch({}, { unknown: 'pending' });
    const { router } = renderApp(path);
    await waitFor(() => expect(locationOf(router)).toBe('/not-authorized'));
    expect(await screen.findByText(MSG.notAuthorized)).toBeInTheDocument();
    // the refused screen never asked the server for anything of its own
    expect(net.calls.map((c) => c.path).filter((p) => p !== 'current-token')).toEqual([]);
  });

  it('a slug that spells another path stays one on the counterpart', async () => {
    signIn(['provider_user']);
    stubFetch({}, { unknown: 'pending' });
    const { router } = renderApp('/training-details/..%2F..%2Fadmin%2Fhome');
    await waitFor(() => expect(locationOf(router)).toMatch(/^\/user\/training-details\//));
    expect(locationOf(router)).toBe('/user/training-details/..%2F..%2Fadmin%2Fhome');
  });
});

describe('/white-board by role', () => {
  it.each([
    ['provider', 'all-trainings'],
    ['trainer', 'trainer/assigned-trainings'],
    ['provider_user', 'lpu/get-trainings'],
  ] as [Role, string][])('%s picks from its own trainings (%s)', async (role, call) => {
    signIn([role]);
    const net = stubFetch({
      [call]: () => ({ body: { list: [TRAINING], total: 1 } }),
      'get-whiteboard': () => ({ body: { success: { scene: null, updated_at: null } } }),
    });
    renderApp('/white-board');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('textbox', { name: 'Training' }));
    await user.click(await screen.findByRole('option', { name: 'Kubernetes Basics' }));
    expect(await screen.findByTestId('excalidraw-stub')).toBeInTheDocument();
    expect(net.callsTo('get-whiteboard')[0]?.body).toEqual({ slug: 'kube-basics' });
    // only the role's own list was asked for
    const lists = ['all-trainings', 'trainer/assigned-trainings', 'lpu/get-trainings'];
    expect(net.calls.filter((c) => lists.includes(c.path)).map((c) => c.path)).toEqual([call]);
  });

  it("a learner sees the host's whiteboard view-only from the start, with the hint", async () => {
    signIn(['organization_user']);
    const net = stubFetch({
      'lpu/get-trainings': () => ({ body: { list: [TRAINING], total: 1 } }),
      'get-whiteboard': () => ({ body: { success: { scene: { elements: [] }, updated_at: null } } }),
    });
    renderApp('/white-board?slug=kube-basics');
    expect(await screen.findByTestId('excalidraw-stub')).toHaveAttribute('data-view-mode', 'true');
    expect(screen.getByText("View only: the training's host edits this whiteboard.")).toBeInTheDocument();
    expect(net.callsTo('save-whiteboard')).toEqual([]);
  });

  it('says so when the list of trainings cannot be loaded', async () => {
    signIn(['provider_user']);
    stubFetch({ 'lpu/get-trainings': () => ({ status: 422, body: { other_error: 'The list is resting.' } }) });
    renderApp('/white-board');
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('The list is resting.')).toBeInTheDocument();
  });
});
