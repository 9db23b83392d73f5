import { randomBytes } from 'node:crypto';
import { type Browser, expect, type Page, test } from '@playwright/test';
import { latestMailTo, login, screenshot, uniqueEmail } from '../support/session';

// Every journey signs in as admin@demo.test; one session per account, so they run one after another.
test.describe.configure({ mode: 'serial' });

const PASSWORD = 'Journey#2026';
const tag = () => randomBytes(3).toString('hex');

async function asUser(browser: Browser, email: string, password?: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await login(page, email, password);
  await expect(page).not.toHaveURL(/\/login$/);
  return page;
}

/** Clicks a row button, answers Yes in the confirm dialog. */
async function confirmRow(page: Page, button: string) {
  await page.getByRole('button', { name: button, exact: true }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Yes' }).click();
}

test('an organization applies, is approved; its account waits, is accepted and lands on /organization', async ({
  browser,
  page,
}) => {
  const t = tag();
  const orgName = `Journey Org ${t}`;
  await page.goto('/register-organization');
  await page.getByRole('textbox', { name: 'Organization name' }).fill(orgName);
  await page.getByRole('textbox', { name: 'Email' }).fill(uniqueEmail('org-apply'));
  await page.getByRole('textbox', { name: 'Organization domain' }).fill(`journey-${t}.test`);
  await page.getByRole('textbox', { name: 'IdP link' }).fill(`https://idp.journey-${t}.test/saml`);
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page.getByText('Wait for account approval you will get mail.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Go to Login' })).toBeVisible();
  await screenshot(page, 'org-register-organization');

  const admin = await asUser(browser, 'admin@demo.test');
  await expect(admin).toHaveURL(/\/admin\/home$/);
  await expect(admin.getByRole('heading', { name: 'Pending requests' })).toBeVisible();
  await screenshot(admin, 'org-admin-home');
  await admin.goto('/admin/approve-organizations');
  await expect(admin.getByRole('cell', { name: orgName, exact: true })).toBeVisible();
  await screenshot(admin, 'org-admin-approve-organizations');
  await confirmRow(admin, `Yes, approve ${orgName}`);
  await expect(admin).toHaveURL(/\/admin\/organizations$/);
  await expect(admin.getByRole('cell', { name: orgName, exact: true })).toBeVisible();
  await screenshot(admin, 'org-admin-organizations');

  // an organization account of the now approved organization registers and must wait
  const ownerEmail = uniqueEmail('org-owner');
  await page.goto('/register');
  await page.getByRole('radio', { name: 'Organization', exact: true }).check();
  await page.getByRole('combobox', { name: 'Organization' }).selectOption({ label: orgName });
  await page.getByRole('combobox', { name: 'Line of business' }).selectOption({ label: 'Healthcare' });
  await page.getByRole('textbox', { name: 'First name' }).fill('Olga');
  await page.getByRole('textbox', { name: 'Last name' }).fill(`Owner${t}`);
  await page.getByRole('textbox', { name: 'Email' }).fill(ownerEmail);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
  await page.getByRole('textbox', { name: 'Mobile no' }).fill('9876505555');
  await page.getByRole('button', { name: /register/i }).click();
  await expect(page).toHaveURL(/\/login$/);
  await login(page, ownerEmail, PASSWORD);
  await expect(page.getByText('Your account is waiting for approval.')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);

  await admin.goto('/admin/learning-provider-requests');
  await admin.getByRole('tab', { name: 'Organization accounts' }).click();
  await expect(admin.getByRole('cell', { name: ownerEmail, exact: true })).toBeVisible();
  await screenshot(admin, 'org-admin-provider-requests-organizations');
  await confirmRow(admin, `Accept Olga Owner${t}`);
  await expect(admin.getByText('Request accepted successfully!')).toBeVisible();
  await expect(admin.getByRole('cell', { name: ownerEmail, exact: true })).toHaveCount(0);

  await login(page, ownerEmail, PASSWORD);
  await expect(page).toHaveURL(/\/organization$/);
  await expect(page.getByRole('heading', { name: orgName })).toBeVisible();

  await admin.goto('/admin/learning-provider-requests');
  await screenshot(admin, 'org-admin-provider-requests');
  await admin.goto('/admin/learning-providers');
  await expect(admin.getByRole('cell', { name: 'provider@demo.test', exact: true })).toBeVisible();
  await screenshot(admin, 'org-admin-learning-providers');
  await admin
    .getByRole('link', { name: /View users of/ })
    .first()
    .click();
  await expect(admin).toHaveURL(/\/admin\/learning-provider-users-list\//);
  await expect(admin.getByRole('cell', { name: 'learner@demo.test', exact: true })).toBeVisible();
  await screenshot(admin, 'org-admin-learning-provider-users');
  await admin.context().close();
});

test('the organization adds a branch and a sub-admin; the admin accepts; the set-password mail arrives', async ({
  browser,
}) => {
  const t = tag();
  const org = await asUser(browser, 'org@demo.test');
  await expect(org).toHaveURL(/\/organization$/);
  await expect(org.getByRole('heading', { name: 'Acme Learning Corp' })).toBeVisible();
  await screenshot(org, 'org-organization-home');
  await org.getByRole('link', { name: 'Add sub-admin or user' }).click();
  await expect(org).toHaveURL(/\/org\/add-org-sub-admin$/);

  const branch = `Branch ${t}`;
  await org.getByRole('button', { name: 'Add New Branch' }).click();
  const dialog = org.getByRole('dialog', { name: 'Add New Branch' });
  await dialog.getByRole('textbox', { name: 'Branch name' }).fill(branch);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  const select = org.getByRole('combobox', { name: 'Branch' });
  await expect(select.locator('option:checked')).toHaveText(branch);

  const email = uniqueEmail('subadmin');
  await org.getByRole('textbox', { name: 'First Name' }).fill('Sam');
  await org.getByRole('textbox', { name: 'Last Name' }).fill(`Sub${t}`);
  await org.getByRole('textbox', { name: 'Email' }).fill(email);
  await org.getByRole('textbox', { name: 'Mobile No' }).fill('9876506666');
  await screenshot(org, 'org-add-org-sub-admin');
  await org.getByRole('button', { name: 'Create Admin' }).click();
  await expect(org.getByRole('status').filter({ hasText: /./ }).first()).toBeVisible();
  await expect(org.getByRole('textbox', { name: 'Email' })).toHaveValue('');
  // the set-password mail goes out when the sub-admin is proposed
  expect(await latestMailTo(org, email)).toMatch(/reset-password\//);

  const admin = await asUser(browser, 'admin@demo.test');
  await admin.goto('/admin/org-sub-admin-requests');
  await expect(admin.getByRole('cell', { name: email, exact: true })).toBeVisible();
  await expect(admin.getByRole('cell', { name: 'Acme Learning Corp', exact: true }).first()).toBeVisible();
  await screenshot(admin, 'org-admin-sub-admin-requests');
  await confirmRow(admin, `Accept Sam Sub${t}`);
  await expect(admin).toHaveURL(/\/admin\/org-sub-admin$/);
  await expect(admin.getByRole('cell', { name: email, exact: true })).toBeVisible();
  await screenshot(admin, 'org-admin-sub-admins');

  // and the acceptance mail once the admin accepts
  expect(await latestMailTo(admin, email)).toMatch(/approved/i);
  await org.context().close();
  await admin.context().close();
});

test('the admin registers a trainer, edits it, and edits a user from /users-list', async ({ browser }) => {
  const t = tag();
  const admin = await asUser(browser, 'admin@demo.test');
  await admin.goto('/trainer/list');
  await admin.getByRole('link', { name: 'Register Trainer' }).click();
  await expect(admin).toHaveURL(/\/trainer\/register$/);
  const email = uniqueEmail('trainer');
  await admin.getByRole('textbox', { name: 'First Name' }).fill('Tara');
  await admin.getByRole('textbox', { name: 'Last Name' }).fill(`Trainer${t}`);
  await admin.getByRole('textbox', { name: 'Email' }).fill(email);
  await admin.getByRole('textbox', { name: 'Mobile No' }).fill('9876507777');
  await screenshot(admin, 'org-trainer-register');
  await admin.getByRole('button', { name: 'Register' }).click();
  await expect(admin.getByText('Trainer register successfully!')).toBeVisible();
  await expect(admin).toHaveURL(/\/trainer\/list$/);
  await expect(admin.getByRole('cell', { name: email, exact: true })).toBeVisible();
  await screenshot(admin, 'org-trainer-list');

  await admin.getByRole('link', { name: `Edit Tara Trainer${t}` }).click();
  await expect(admin).toHaveURL(/\/trainer\/update\/\d+$/);
  await expect(admin.getByRole('textbox', { name: 'Email' })).toHaveValue(email);
  await admin.getByRole('textbox', { name: 'Last Name' }).fill(`Edited${t}`);
  await screenshot(admin, 'org-trainer-update');
  await admin.getByRole('button', { name: 'Update' }).click();
  await expect(admin).toHaveURL(/\/trainer\/list$/);
  await expect(admin.getByRole('cell', { name: `Edited${t}`, exact: true })).toBeVisible();

  await admin.goto('/users-list');
  await admin.getByRole('textbox', { name: 'Search' }).fill(email);
  await expect(admin.getByRole('cell', { name: email, exact: true })).toBeVisible();
  await screenshot(admin, 'org-users-list');
  await admin.getByRole('link', { name: `Edit Tara Edited${t}` }).click();
  await expect(admin).toHaveURL(/\/update-user-profile\//);
  await admin.getByRole('textbox', { name: 'Mobile No' }).fill('9876508888');
  await screenshot(admin, 'org-update-user-profile');
  await admin.getByRole('button', { name: 'Update' }).click();
  await expect(admin).toHaveURL(/\/users-list$/);
  await admin.context().close();
});
