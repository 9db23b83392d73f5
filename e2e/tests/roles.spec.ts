import { expect, test } from '@playwright/test';
import { menuForRoles, ROLE_HOME, type Role } from '@trainlab/contract';
import { axeViolations } from '../support/axe';
import { login, screenshot } from '../support/session';

const DEMO: [Role, string][] = [
  ['admin', 'admin@demo.test'],
  ['provider', 'provider@demo.test'],
  ['organization', 'org@demo.test'],
  ['org_subadmin', 'orgadmin@demo.test'],
  ['provider_user', 'learner@demo.test'],
  ['organization_user', 'orguser@demo.test'],
  ['user', 'user@demo.test'],
  ['trainer', 'trainer@demo.test'],
];

test.describe.configure({ mode: 'serial' });

for (const [role, email] of DEMO) {
  test(`${role} lands on its home with its sidebar`, async ({ page }) => {
    await login(page, email);
    await expect(page).toHaveURL(new RegExp(`${ROLE_HOME[role]}$`));
    const nav = page.getByRole('navigation', { name: /main/i });
    const expected = menuForRoles([role]).map((m) => m.label);
    await expect(nav.getByRole('link')).toHaveText(expected);
    if (role === 'admin') await expect(nav.getByRole('link', { name: 'My Trainings' })).toHaveCount(0);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, `home-${role}`);
  });
}

test('guards: anonymous to /, wrong role to /not-authorized, conference link returns after login', async ({ page }) => {
  await page.goto('/admin/home');
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/conference/some-training');
  await expect(page).toHaveURL(/\/login$/);
  await login(page, 'user@demo.test');
  await expect(page).toHaveURL(/\/conference\/some-training$/);
  await page.goto('/admin/home');
  await expect(page).toHaveURL(/\/not-authorized$/);
  await expect(page.getByText('Yor Are Not Authrized!')).toBeVisible();
  await page.goto('/no/such/page');
  await expect(page.getByText('page not found !')).toBeVisible();
});

test('the login page passes axe', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByRole('button', { name: /^login$/i })).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);
  await screenshot(page, 'login');
});
