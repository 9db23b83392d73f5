import { randomBytes, randomInt } from 'node:crypto';
import { expect, type Page } from '@playwright/test';
import type { Role } from '@trainlab/contract';

export const DEMO_PASSWORD = 'Demo@12345';

/** The demo account of each role (apps/server/src/seed). */
export const DEMO_EMAIL: Record<Role, string> = {
  admin: 'admin@demo.test',
  provider: 'provider@demo.test',
  organization: 'org@demo.test',
  org_subadmin: 'orgadmin@demo.test',
  provider_user: 'learner@demo.test',
  organization_user: 'orguser@demo.test',
  user: 'user@demo.test',
  trainer: 'trainer@demo.test',
};

export async function login(
  page: Page,
  email: string,
  password = DEMO_PASSWORD,
  opts: { logoutPrevious?: boolean } = {},
) {
  await page.goto('/login');
  await page.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  const previous = page.getByLabel('Logout Previous Account');
  if (opts.logoutPrevious === false) await previous.uncheck();
  await page.getByRole('button', { name: /^login$/i }).click();
}

export const uniqueEmail = (stem: string) => `${stem}-${randomBytes(4).toString('hex')}@e2e.test`;

/** A fresh learner account through the API (user_type 2 needs no approval); answers its e-mail. */
export async function registerLearner(
  page: Page,
  who: { stem: string; first_name: string; last_name: string; password: string },
): Promise<string> {
  const email = uniqueEmail(who.stem);
  const res = await page.request.post('/api/register', {
    data: {
      first_name: who.first_name,
      last_name: who.last_name,
      email,
      password: who.password,
      mobile_no: `9${String(randomInt(100_000_000, 999_999_999))}`,
      user_type: 2,
    },
  });
  expect(res.status(), await res.text()).toBe(200);
  return email;
}

/** The newest message for a recipient in the dev mailbox (the embedded outbox). */
export async function latestMailTo(page: Page, email: string): Promise<string> {
  const res = await page.request.post('/api/dev/mailbox', { data: {} });
  expect(res.ok()).toBe(true);
  const { list } = (await res.json()) as { list: { to: string; text: string }[] };
  const mail = list.find((m) => m.to === email);
  if (!mail) throw new Error(`no mail to ${email}`);
  return mail.text;
}

/** Full-page screenshot kept under e2e/.artifacts/screens for a person to look at. */
export async function screenshot(page: Page, name: string) {
  await page.screenshot({ path: `${import.meta.dirname}/../.artifacts/screens/${name}.png`, fullPage: true });
}
