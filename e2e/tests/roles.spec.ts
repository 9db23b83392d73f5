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

test('/my-trainings answers every non-admin role with its table, an empty one saying No Data Found once', async ({
  page,
}) => {
  for (const [role, email] of DEMO.filter(([r]) => r !== 'admin')) {
    await page.context().clearCookies();
    await page.goto('/');
    await page.evaluate(() => localStorage.clear());
    await login(page, email);
    await expect(page).toHaveURL(new RegExp(`${ROLE_HOME[role]}$`));
    await page.goto('/my-trainings');
    await expect(page.getByRole('heading', { level: 1, name: 'My Trainings' })).toBeVisible();
    await expect(page.getByText('You are not allowed to do this.')).toHaveCount(0);
    const table = page.getByRole('table', { name: 'My trainings' });
    await expect(table).toBeVisible();
    const dataRow = table.locator('tbody tr:not(.mantine-datatable-empty-row)').first();
    await expect(dataRow.or(page.getByText('No Data Found')).first()).toBeVisible();
    if (role === 'provider' || role === 'trainer') {
      // demo providers and trainers are enrolled in nothing: one 'No Data Found', no pagination footer
      await expect(page.getByText('No Data Found')).toHaveCount(1);
      await screenshot(page, `my-trainings-empty-${role}`);
    }
  }
});
