import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { menuForRoles } from '@trainlab/contract';
import { describe, expect, it, vi } from 'vitest';
import { stubFetch } from './fetch-stub';
import { renderApp, signIn } from './render-app';

const row = (id: number, over: Record<string, unknown> = {}) => ({
  id,
  at: '2026-11-20T10:00:00.000Z',
  actor_id: 7,
  actor_email: 'admin@example.test',
  actor_role: 'admin',
  action: 'update-category',
  target_type: 'category',
  target_id: String(id),
  changes: { name: { before: 'Old', after: `New ${id}` } },
  ip: '203.0.113.7',
  ...over,
});

/** The audit page as the server answers it: 25 rows, filtered by action, 20 a page. */
function auditStub() {
  const all = Array.from({ length: 25 }, (_, i) =>
    row(i + 1, i % 5 === 0 ? { action: 'delete-certification', target_type: 'certification' } : {}),
  );
  return stubFetch({
    'get-audit-log': (b) => {
      const list = all.filter((r) => !b.action || r.action.includes(String(b.action)));
      const page = Number(b.page ?? 1);
      const perPage = Number(b.per_page ?? 20);
      return {
        body: { list: list.slice((page - 1) * perPage, page * perPage), total: list.length, page, per_page: perPage },
      };
    },
    'export-audit-log': () => ({ body: {} }),
  });
}

describe('/audit-log', () => {
  it('is in the sidebar of the admin and of each tenant manager, not of learners or trainers', () => {
    for (const role of ['admin', 'provider', 'organization', 'org_subadmin'] as const)
      expect(
        menuForRoles([role]).map((m) => m.path),
        role,
      ).toContain('/audit-log');
    for (const role of ['user', 'provider_user', 'organization_user', 'trainer'] as const)
      expect(
        menuForRoles([role]).map((m) => m.path),
        role,
      ).not.toContain('/audit-log');
  });

  it('lists rows with actor, action, target and changes; filters by actor, action, target and dates', async () => {
    signIn(['admin']);
    const net = auditStub();
    renderApp('/audit-log');
    expect(await screen.findByRole('heading', { level: 1, name: 'Audit Trail' })).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Audit trail' });
    expect((await within(table).findAllByText('update-category')).length).toBeGreaterThan(0);
    expect(within(table).getAllByText('admin@example.test (#7)').length).toBeGreaterThan(0);
    expect(within(table).getByText(/name: "Old" → "New 2"/)).toBeInTheDocument();

    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Actor (id or e-mail)'), '7');
    await user.type(screen.getByLabelText('Action'), 'delete');
    await user.type(screen.getByLabelText('Target type'), 'certification');
    await user.type(screen.getByLabelText('Target id'), '6');
    await user.type(screen.getByLabelText('From'), '2026-11-01');
    await user.type(screen.getByLabelText('To'), '2026-11-30');
    await waitFor(() =>
      expect(net.callsTo('get-audit-log').at(-1)?.body).toMatchObject({
        actor: '7',
        action: 'delete',
        target_type: 'certification',
        target_id: '6',
        from: '2026-11-01',
        to: '2026-11-30',
        page: 1,
      }),
    );
    await waitFor(() => expect(within(table).queryByText('update-category')).toBeNull());
  });

  it('pages through the rows', async () => {
    signIn(['provider']);
    const net = auditStub();
    renderApp('/audit-log');
    await screen.findByRole('table', { name: 'Audit trail' });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: '2' }));
    await waitFor(() => expect(net.callsTo('get-audit-log').at(-1)?.body).toMatchObject({ page: 2 }));
    expect(await screen.findAllByText(/name: "Old" → "New 21"/)).not.toHaveLength(0);
  });

  it('exports the filtered rows as CSV', async () => {
    signIn(['organization']);
    const net = auditStub();
    const createObjectURL = vi.fn(() => 'blob:audit');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    renderApp('/audit-log?action=delete');
    await screen.findByRole('table', { name: 'Audit trail' });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(net.callsTo('export-audit-log')[0]?.body).toEqual({ action: 'delete' }));
    await waitFor(() => expect(createObjectURL).toHaveBeenCalled());
  });

  it('shows the error text when the trail cannot be read', async () => {
    signIn(['admin']);
    stubFetch({ 'get-audit-log': () => ({ status: 403, body: { message: 'This action is unauthorized.' } }) });
    renderApp('/audit-log');
    expect(await screen.findByText('This action is unauthorized.')).toBeInTheDocument();
  });
});

describe('a very long list counted only so far', () => {
  it('says "of more than" the total when the server answers total_capped, and "of" the total when not', async () => {
    signIn(['admin']);
    const page = Array.from({ length: 20 }, (_, i) => row(i + 1));
    let capped = true;
    stubFetch({
      'get-audit-log': () => ({
        body: { list: page, total: 1020, page: 1, per_page: 20, ...(capped ? { total_capped: true } : {}) },
      }),
    });
    const first = renderApp('/audit-log');
    expect(await screen.findByText('1–20 of more than 1,020')).toBeInTheDocument();
    first.unmount();
    capped = false;
    renderApp('/audit-log');
    expect(await screen.findByText('1–20 of 1020')).toBeInTheDocument();
    expect(screen.queryByText(/more than/)).toBeNull();
  });
});
