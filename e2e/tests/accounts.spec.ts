import { expect, test } from '@playwright/test';
import { latestMailTo, login, uniqueEmail } from '../support/session';

const PASSWORD = 'Journey#2026';

async function registerUser(page: import('@playwright/test').Page, email: string) {
  await page.goto('/register');
  await page.getByRole('radio', { name: 'User', exact: true }).check();
  await page.getByRole('textbox', { name: 'First name' }).fill('Jaya');
  await page.getByRole('textbox', { name: 'Last name' }).fill('Journey');
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
  await page.getByRole('textbox', { name: 'Mobile no' }).fill('9876501234');
  await page.getByRole('button', { name: /register/i }).click();
  await expect(page.getByText('Your account successfully register!').first()).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
}

test('register a user → log in → /users → log out', async ({ page }) => {
  const email = uniqueEmail('journey');
  await registerUser(page, email);
  await login(page, email, PASSWORD);
  await expect(page).toHaveURL(/\/users$/);
  await expect(page.getByText('Jaya').first()).toBeVisible();
  await page.getByRole('button', { name: /logout/i }).click();
  await expect(page).toHaveURL(/\/$/);
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
});

test('logging in elsewhere with Logout Previous Account logs the first browser out on its next load', async ({
  browser,
}) => {
  const email = uniqueEmail('twice');
  const first = await browser.newContext();
  const second = await browser.newContext();
  const a = await first.newPage();
  const b = await second.newPage();
  await registerUser(a, email);
  await login(a, email, PASSWORD);
  await expect(a).toHaveURL(/\/users$/);

  // without 'Logout Previous Account' the second browser is refused
  await login(b, email, PASSWORD, { logoutPrevious: false });
  await expect(b.getByText('Your Account already login into another device or tab')).toBeVisible();
  await login(b, email, PASSWORD);
  await expect(b).toHaveURL(/\/users$/);

  await a.reload();
  await expect(a).toHaveURL(/\/$/);
  expect(await a.evaluate(() => localStorage.getItem('token'))).toBeNull();
  await first.close();
  await second.close();
});

test('forgot password → mailbox → reset → log in', async ({ page }) => {
  const email = uniqueEmail('forgot');
  await registerUser(page, email);
  await page.goto('/forgot-password');
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByRole('button', { name: /send|reset|submit/i }).click();
  await expect(page.getByText('We have e-mailed your password reset link!').first()).toBeVisible();

  const text = await latestMailTo(page, email);
  const link = /http:\/\/localhost:\d+(\/reset-password\/[A-Za-z0-9_-]+)/.exec(text)?.[1];
  expect(link).toBeTruthy();
  // the mailbox page shows it too, with a clickable link
  await page.goto('/dev/mailbox');
  await page.getByText(email).first().click();
  await page
    .getByRole('link', { name: /reset-password/ })
    .first()
    .click();
  await expect(page).toHaveURL(new RegExp(`${link}$`));

  await page.getByRole('textbox', { name: 'Password', exact: true }).fill('Brand#New2026');
  await page.getByRole('textbox', { name: 'Confirm password' }).fill('Brand#New2026');
  await page.getByRole('button', { name: /reset/i }).click();
  await expect(page.getByText('Your password reset successfully!')).toBeVisible();

  await login(page, email, 'Brand#New2026');
  await expect(page).toHaveURL(/\/users$/);
});
