import { screen, within } from '@testing-library/react';
import { menuForRoles, ROLE_HOME, ROLES } from '@trainlab/contract';
import { describe, expect, it } from 'vitest';
import { stubFetch } from './fetch-stub';
import { renderApp, signIn } from './render-app';

async function sidebarLabels(): Promise<string[]> {
  const nav = await screen.findByRole('navigation', { name: 'Main menu' });
  return within(nav)
    .getAllByRole('link')
    .map((a) => a.textContent ?? '');
}

describe('role sidebar', () => {
  it.each(ROLES)('shows exactly menuForRoles([%s])', async (role) => {
    stubFetch();
    signIn([role]);
    renderApp(ROLE_HOME[role]);
    expect(await sidebarLabels()).toEqual(menuForRoles([role]).map((m) => m.label));
  });

  it('gives admin only admin menus and no My Trainings', async () => {
    stubFetch();
    signIn(['admin']);
    renderApp('/admin/home');
    const labels = await sidebarLabels();
    expect(labels).not.toContain('My Trainings');
    expect(labels[0]).toBe('Dashboard');
  });

  it('merges the menus of an account with several roles without repeats', async () => {
    stubFetch();
    signIn(['trainer', 'user']);
    renderApp('/trainer-home');
    const labels = await sidebarLabels();
    expect(labels).toEqual(menuForRoles(['trainer', 'user']).map((m) => m.label));
    expect(labels.filter((l) => l === 'My Trainings')).toHaveLength(1);
  });

  it('shows the account in the shell header with Change Password and Logout', async () => {
    stubFetch();
    signIn(['provider'], { first_name: 'Pat', last_name: 'Provider' });
    renderApp('/learning-provider');
    expect(await screen.findByTestId('shell-user-name')).toHaveTextContent('Pat Provider');
    const header = screen.getByRole('banner');
    expect(within(header).getByRole('link', { name: 'Change Password' })).toHaveAttribute('href', '/change-password');
    expect(within(header).getByRole('button', { name: 'Logout' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Skip to content' })).toHaveAttribute('href', '#main-content');
  });
});

describe('role home', () => {
  it('welcomes the account and links to every other menu entry', async () => {
    stubFetch();
    signIn(['trainer'], { first_name: 'Tara', last_name: 'Trainer', email: 'trainer@demo.test' });
    renderApp('/trainer-home');
    expect(await screen.findByText('Welcome, Tara Trainer')).toBeInTheDocument();
    expect(screen.getByText('trainer@demo.test')).toBeInTheDocument();
    const quick = screen.getByRole('region', { name: 'Quick links' });
    const expected = menuForRoles(['trainer'])
      .filter((m) => m.path !== '/trainer-home')
      .map((m) => m.label);
    expect(
      within(quick)
        .getAllByRole('link')
        .map((a) => a.getAttribute('aria-label')),
    ).toEqual(expected);
  });
});
