import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import * as XLSX from 'xlsx';
import { axeViolations } from '../support/axe';
import { login, screenshot, uniqueEmail } from '../support/session';
import { addSyllabusTopic, addTrainingUser, createTraining, toast, trTag } from '../support/trainings';

// Every journey here signs in as provider@demo.test; one session per account, so one after another.
test.describe.configure({ mode: 'serial' });

test('provider runs a live training from creation to certificates', async ({ page, context }) => {
  test.setTimeout(120_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const t = trTag();
  const name = `Provider Training ${t}`;
  const topic = `Kick-off ${t}`;

  await login(page, 'provider@demo.test');
  await expect(page).toHaveURL(/\/learning-provider$/);
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  await expect(page.getByLabel('Total Trainings')).toBeVisible();
  await screenshot(page, 'tr-dashboard');

  // the Cost tab prices the training from the service prices
  await page.goto('/create-training');
  await page.getByRole('checkbox', { name: 'Pre Assessment' }).check();
  await page.getByRole('textbox', { name: 'Requirement' }).fill('A laptop');
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Delete requirement A laptop' })).toBeVisible();
  await screenshot(page, 'tr-create-training');
  await page.getByRole('tab', { name: 'Cost' }).click();
  await expect(page.getByRole('table', { name: 'Training cost' })).toContainText('TRAINING (Per Day)');
  await expect(page.getByRole('table', { name: 'Training cost' })).toContainText('PRE-ASSESSMENT (Per Test)');
  await screenshot(page, 'tr-create-training-cost');

  const slug = await createTraining(page, name);
  await expect(toast(page, 'Training created successfully!')).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toContainText('Not Public');
  await screenshot(page, 'tr-all-trainings');
  // the toasts' close button has no accessible name (shared Notifications setup): check once they are gone
  await expect(page.locator('.mantine-Notification-root')).toHaveCount(0, { timeout: 8000 });
  expect(await axeViolations(page)).toEqual([]);

  // three learners from the downloaded template, then one by hand
  await page.goto(`/add-training-user/${slug}`);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download template' }).click(),
  ]);
  const dir = mkdtempSync(path.join(tmpdir(), 'tr-e2e-'));
  const templatePath = path.join(dir, 'template.xlsx');
  await download.saveAs(templatePath);
  const book = XLSX.read(readFileSync(templatePath));
  const sheet = book.Sheets[book.SheetNames[0] as string];
  if (!sheet) throw new Error('template has no sheet');
  const header = (XLSX.utils.sheet_to_json<string[]>(sheet, { header: 1 })[0] ?? []).map(String);
  expect(header).toEqual(['firstname', 'lastname', 'email', 'mobileno']);
  const learners = [1, 2, 3].map((i) => ({
    firstname: `Imported${i}`,
    lastname: `Learner ${t}`,
    email: uniqueEmail(`tr-import-${i}`),
    mobileno: `98765432${i}0`,
  }));
  const out = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(out, XLSX.utils.json_to_sheet(learners, { header }), 'Sheet1');
  const filled = path.join(dir, 'learners.xlsx');
  writeFileSync(filled, XLSX.write(out, { type: 'buffer', bookType: 'xlsx' }));
  await page.locator('input[type="file"]').setInputFiles(filled);
  await screenshot(page, 'tr-add-training-user');
  await page.getByRole('button', { name: 'Import' }).click();
  await expect(page).toHaveURL(new RegExp(`/show-training-users/${slug}$`));
  for (const l of learners) await expect(page.getByRole('row').filter({ hasText: l.email })).toBeVisible();

  const handEmail = uniqueEmail('tr-hand');
  await addTrainingUser(page, slug, {
    first_name: 'Hand',
    last_name: `Added ${t}`,
    email: handEmail,
    mobile_no: '9123456780',
  });
  await expect(page.getByRole('row').filter({ hasText: 'Imported' })).toHaveCount(3);
  await screenshot(page, 'tr-show-training-users');

  // a syllabus topic
  await page.goto(`/add-training-syllabus/${slug}`);
  await screenshot(page, 'tr-add-training-syllabus');
  await addSyllabusTopic(page, slug, topic);

  // make public, copy the link
  await page.goto('/all-trainings');
  await row.getByRole('button', { name: `More actions for ${name}` }).click();
  await page.getByRole('menuitem', { name: 'Make Public' }).click();
  await expect(toast(page, 'Training is public now.')).toBeVisible();
  await expect(row).toContainText('Public');
  await expect(row).not.toContainText('Not Public');
  await row.getByRole('button', { name: `More actions for ${name}` }).click();
  await expect(page.getByRole('menuitem', { name: 'Stop Public' })).toBeVisible();
  await screenshot(page, 'tr-all-trainings-menu');
  await page.keyboard.press('Escape');
  await row.getByRole('button', { name: `More actions for ${name}` }).click();
  await page.getByRole('menuitem', { name: 'Copy Meeting Link' }).click();
  await expect(toast(page, 'Training Link Copied!')).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toContain('/public/conference/');
  expect(copied).toMatch(/^Hello/);

  // Start now goes to the syllabus (the training has a topic); start then complete the topic
  await row.getByRole('button', { name: `Start ${name}` }).click();
  await expect(page).toHaveURL(new RegExp(`/training-syllabus/${slug}$`));
  const topicRow = page.getByRole('row').filter({ hasText: topic });
  await expect(topicRow).toContainText('Schedule');
  await screenshot(page, 'tr-training-syllabus');
  const [conference] = await Promise.all([
    page.waitForEvent('popup'),
    topicRow.getByRole('button', { name: `Start ${topic}` }).click(),
  ]);
  // waitForURL follows the popup's navigation events; reading the URL from the page can race
  // the popup's first (blank) document being replaced
  await conference.waitForURL(new RegExp(`/conference/${slug}$`));
  await conference.close();
  await expect(topicRow).toContainText('Starting');
  await topicRow.getByRole('button', { name: `Complete ${topic}` }).click();
  await expect(topicRow).toContainText('Completed');
  await screenshot(page, 'tr-training-syllabus-completed');

  // attendance of the training (nobody joined)
  await topicRow.getByRole('link', { name: `Attendance of ${topic}` }).click();
  await expect(page).toHaveURL(/\/training-attendance\/[A-Za-z0-9=]+$/);
  await expect(page.getByText('No Data Found').last()).toBeVisible();
  await screenshot(page, 'tr-training-attendance');

  // certificate right for one learner (the screen works by slug even before the training ends)
  await page.goto(`/completed-training-users/${slug}`);
  await expect(page.getByRole('heading', { name: 'Completed Training User' })).toBeVisible();
  const handRow = page
    .getByRole('table', { name: 'Completed training users' })
    .getByRole('row')
    .filter({ hasText: handEmail });
  await expect(handRow).toContainText('Not joined');
  const certSwitch = handRow.getByRole('switch', { name: /Certificate download for/ });
  await expect(certSwitch).not.toBeChecked();
  await handRow.locator('.mantine-Switch-track').click();
  await expect(toast(page, 'Certificate download access: YES')).toBeVisible();
  await expect(certSwitch).toBeChecked();
  await screenshot(page, 'tr-completed-training-users');
  await expect(page.locator('.mantine-Notification-root')).toHaveCount(0, { timeout: 8000 });
  expect(await axeViolations(page)).toEqual([]);

  // the training's details page and trainer assignment screen
  await page.goto(`/training-details/${slug}`);
  await expect(page.getByRole('heading', { name })).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: topic })).toContainText('Completed');
  await screenshot(page, 'tr-training-details');
  await page.goto(`/assing/trainer/${slug}`);
  await expect(page.getByRole('textbox', { name: 'Trainers' })).toBeVisible();
  await screenshot(page, 'tr-assign-trainer');

  // completed trainings and the certificate settings dialog
  await page.goto('/completed-trainings');
  await page.getByRole('button', { name: 'Certificate settings' }).click();
  const dialog = page.getByRole('dialog', { name: 'Certificate settings' });
  await expect(dialog.getByRole('textbox', { name: 'Issuer Name' })).not.toHaveValue('');
  await screenshot(page, 'tr-certificate-settings');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(toast(page, 'Certificate settings updated successfully!')).toBeVisible();
  await screenshot(page, 'tr-completed-trainings');

  await page.goto('/recording/MQ==');
  await expect(page.getByText('Recording Not Available')).toBeVisible();
});
