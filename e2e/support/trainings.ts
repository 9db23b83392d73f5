import { randomBytes } from 'node:crypto';
import { expect, type Page } from '@playwright/test';

/** A unique tag for names and e-mails of one journey run. */
export const trTag = () => randomBytes(3).toString('hex');

/** The newest Mantine toast that carries `text`. */
export const toast = (page: Page, text: string | RegExp) =>
  page.locator('.mantine-Notification-root').filter({ hasText: text }).last();

/** Picks a date and time in a Mantine DateTimePicker labelled `label` (its dropdown names its parts). */
export async function pickDateTime(page: Page, label: string, when: Date) {
  await page.getByRole('button', { name: label, exact: true }).click();
  const dialog = page.getByRole('dialog');
  const day = `${when.getDate()} ${when.toLocaleString('en-US', { month: 'long' })} ${when.getFullYear()}`;
  const two = (n: number) => String(n).padStart(2, '0');
  await dialog.getByRole('button', { name: day, exact: true }).click();
  await dialog.getByLabel(`${label} hours`).fill(two(when.getHours()));
  await dialog.getByLabel(`${label} minutes`).fill(two(when.getMinutes()));
  await dialog.getByRole('button', { name: `Confirm ${label}` }).click();
  await expect(dialog).toBeHidden();
}

/** On the Create Training form: a start in about five minutes and an end later the same day. */
export async function pickTrainingDates(page: Page) {
  const start = new Date(Date.now() + 5 * 60_000);
  const end = new Date(start);
  // later the same day (the calendar shows the start's month)
  if (start.getHours() < 23) end.setHours(23, 30);
  else end.setMinutes(59);
  await pickDateTime(page, 'Start Date', start);
  await pickDateTime(page, 'End Date', end);
}

/**
 * Signed in as a provider (or organization) on any page: creates a training that starts in about
 * five minutes and ends later the same day, and returns its slug (read from the Upcoming list).
 */
export async function createTraining(page: Page, name: string, participants = 10): Promise<string> {
  await page.goto('/create-training');
  await expect(page.getByRole('heading', { name: 'Create Training' })).toBeVisible();
  await page.getByRole('textbox', { name: 'Name' }).fill(name);
  await pickTrainingDates(page);
  await page.getByRole('textbox', { name: 'Number Of Participants' }).fill(String(participants));
  await page.getByRole('textbox', { name: 'Description' }).fill(`About ${name}`);
  await page.getByRole('button', { name: 'Create Training' }).last().click();
  await expect(page).toHaveURL(/\/all-trainings$/);
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toBeVisible();
  const href = await row.getByRole('link', { name: `Users of ${name}` }).getAttribute('href');
  const slug = href?.split('/').pop();
  if (!slug) throw new Error(`no slug for ${name}`);
  return slug;
}

/** Enrols one learner by hand on /add-training-user/{slug}; ends on /show-training-users/{slug}. */
export async function addTrainingUser(
  page: Page,
  slug: string,
  person: { first_name: string; last_name: string; email: string; mobile_no: string },
) {
  await page.goto(`/add-training-user/${slug}`);
  await page.getByRole('textbox', { name: 'First Name' }).fill(person.first_name);
  await page.getByRole('textbox', { name: 'Last Name' }).fill(person.last_name);
  await page.getByRole('textbox', { name: 'Email' }).fill(person.email);
  await page.getByRole('textbox', { name: 'Mobile No' }).fill(person.mobile_no);
  await page.getByRole('button', { name: 'Add User' }).last().click();
  await expect(page).toHaveURL(new RegExp(`/show-training-users/${slug}$`));
  await expect(page.getByRole('row').filter({ hasText: person.email })).toBeVisible();
}

/** Adds one syllabus topic by hand; ends on /training-syllabus/{slug}. */
export async function addSyllabusTopic(page: Page, slug: string, topic: string) {
  await page.goto(`/add-training-syllabus/${slug}`);
  await page.getByRole('textbox', { name: 'Topic Name' }).fill(topic);
  await page.getByRole('button', { name: 'Add Topic' }).click();
  await expect(page).toHaveURL(new RegExp(`/training-syllabus/${slug}$`));
  await expect(page.getByRole('row').filter({ hasText: topic })).toBeVisible();
}

/**
 * For other journeys (signed in as a provider): a training starting in ~5 minutes with one
 * syllabus topic and `learnerEmail` enrolled (a new e-mail gets an account and a set-password
 * mail; an existing learner an enrolment mail). Returns the training's name and slug.
 */
export async function createTrainingWithLearner(
  page: Page,
  learnerEmail: string,
  opts: { name?: string; topic?: string } = {},
): Promise<{ name: string; slug: string; topic: string }> {
  const t = trTag();
  const name = opts.name ?? `Journey Training ${t}`;
  const topic = opts.topic ?? `Topic ${t}`;
  const slug = await createTraining(page, name);
  await addTrainingUser(page, slug, {
    first_name: 'Journey',
    last_name: `Learner ${t}`,
    email: learnerEmail,
    mobile_no: '9876543210',
  });
  await addSyllabusTopic(page, slug, topic);
  return { name, slug, topic };
}
