import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import * as XLSX from 'xlsx';
import { login, screenshot } from '../support/session';

// Every journey signs in as admin@demo.test; one session per account, so they run one after another.
test.describe.configure({ mode: 'serial' });

const tag = () => randomBytes(3).toString('hex');

async function asAdmin(page: Page) {
  await login(page, 'admin@demo.test');
  await expect(page).toHaveURL(/\/admin\/home$/);
}

/** A server call with the page's session (setting up master items the import refers to). */
async function api(page: Page, path: string, data: unknown) {
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const res = await page.request.post(`/api/${path}`, { data, headers: { Authorization: `Bearer ${token}` } });
  return { status: res.status(), body: await res.json().catch(() => null) };
}

const toast = (page: Page, text: string) => page.locator('.mantine-Notification-root').filter({ hasText: text }).last();

const MASTERS = [
  ['Certification Type', 'CertificationType'],
  ['Product', 'Product'],
  ['Role', 'RolesType'],
  ['Exam', 'Exam'],
  ['Certification Role', 'CertificationRoles'],
] as const;

test('admin creates a certification with new master entries, edits it and deletes it', async ({ page }) => {
  const t = tag();
  const name = `Journey Cert ${t}`;
  await asAdmin(page);
  await page.goto('/certification/create');
  await expect(page.getByRole('heading', { name: 'Create Certification' })).toBeVisible();
  await screenshot(page, 'md-certification-create');

  await page.getByRole('textbox', { name: 'Name' }).first().fill(name);
  await page.getByRole('combobox', { name: 'Level' }).selectOption('Advance');
  for (const [label] of MASTERS) {
    await page.getByRole('button', { name: `Add New ${label}` }).click();
    const dialog = page.getByRole('dialog', { name: `Add New ${label}` });
    await dialog.getByRole('textbox', { name: 'Name' }).fill(`${label} ${t}`);
    await dialog.getByRole('textbox', { name: 'Description' }).fill(`About ${label}`);
    await dialog.getByRole('textbox', { name: 'Overview' }).fill(`Overview of ${label}`);
    if (label === 'Exam') await screenshot(page, 'md-certification-master-modal');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('combobox', { name: label, exact: true })).toHaveText(new RegExp(`${label} ${t}`));
    const selected = page.getByRole('combobox', { name: label, exact: true }).locator('option:checked');
    await expect(selected).toHaveText(`${label} ${t}`);
  }
  // a duplicate master name is refused under the name
  await page.getByRole('button', { name: 'Add New Product' }).click();
  const dup = page.getByRole('dialog', { name: 'Add New Product' });
  await dup.getByRole('textbox', { name: 'Name' }).fill(`Product ${t}`);
  await dup.getByRole('button', { name: 'Save' }).click();
  await expect(dup.getByText('The Name has already been taken.')).toBeVisible();
  await dup.getByRole('button', { name: 'Cancel' }).click();

  await page.getByRole('textbox', { name: 'Cost ($)' }).fill('120');
  await page.getByRole('textbox', { name: 'Cost (₹)' }).fill('9900');
  await page.getByRole('textbox', { name: 'Certification Description' }).fill('Made by a journey.');
  await page.getByRole('button', { name: 'Create Certification' }).click();
  await expect(page).toHaveURL(/\/certification\/list$/);
  await expect(toast(page, 'Record Added Successfully!')).toBeVisible();

  await page.getByRole('textbox', { name: 'Search' }).fill(t);
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toContainText('$120 / ₹9900');
  await screenshot(page, 'md-certification-list');
  await row.getByRole('button', { name: `View ${name}` }).click();
  await expect(page.getByRole('dialog', { name })).toContainText('Made by a journey.');
  await screenshot(page, 'md-certification-view');
  await page.keyboard.press('Escape');

  await row.getByRole('link', { name: `Edit ${name}` }).click();
  await expect(page).toHaveURL(/\/certification\/edit\/\d+$/);
  await expect(page.getByRole('textbox', { name: 'Name' }).first()).toHaveValue(name);
  await screenshot(page, 'md-certification-edit');
  await page.getByRole('textbox', { name: 'Name' }).first().fill(`${name} v2`);
  await page.getByRole('button', { name: 'Update Certification' }).click();
  await expect(page).toHaveURL(/\/certification\/list$/);
  await expect(toast(page, 'Record updated successfully!')).toBeVisible();

  await page.getByRole('textbox', { name: 'Search' }).fill(t);
  await page.getByRole('button', { name: `Delete ${name} v2` }).click();
  await page.getByRole('dialog', { name: 'Delete certification' }).getByRole('button', { name: 'Yes' }).click();
  await expect(toast(page, 'Record deleted successfully!')).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: `${name} v2` })).toHaveCount(0);
  await expect(page.getByText('No Data Found').first()).toBeVisible();
  await screenshot(page, 'md-certification-list-empty');
});

test('admin imports certifications from the Excel template: a bad row is reported, then fixed', async ({
  page,
}, testInfo) => {
  const t = tag();
  await asAdmin(page);
  // master items the sheet names
  for (const [, type] of MASTERS) {
    const res = await api(page, 'create-certification-master', {
      type,
      name: `${type} X${t}`,
      description: 'Journey item',
      overview: 'Journey item',
    });
    expect(res.status).toBe(200);
  }
  await page.goto('/certification/create');
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download template' }).click();
  const download = await downloading;
  const templatePath = testInfo.outputPath('template.xlsx');
  await download.saveAs(templatePath);
  const template = XLSX.read(readFileSync(templatePath));
  const sheet = template.Sheets[template.SheetNames[0] ?? ''];
  if (!sheet) throw new Error('the template has no sheet');
  const header = XLSX.utils.sheet_to_json<string[]>(sheet, { header: 1 })[0]!;
  expect(header).toContain('certification_type');

  const row = (name: string, level: string) =>
    header.map((col) => {
      const values: Record<string, string | number> = {
        name,
        level,
        certification_type: `CertificationType X${t}`,
        product: `Product X${t}`,
        role: `RolesType X${t}`,
        exam: `Exam X${t}`,
        certification_role: `CertificationRoles X${t}`,
        exam_link: 'https://example.com/exam',
        product_link: 'https://example.com/',
        duration: '90 minutes',
        certification_description: 'Imported by a journey.',
        certification_prerequisites: '',
        certification_details: '',
        remark: '',
        cost_doller: 50,
        cost_inr: 4000,
        recommended_experiance: 1,
      };
      return values[col] ?? '';
    });
  const sheetFile = (rows: (string | number)[][]) => {
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([header, ...rows]), 'Sheet1');
    const path = testInfo.outputPath(`certs-${rows.length}-${Date.now()}.xlsx`);
    // SheetJS's ES module build has no file system of its own (XLSX.writeFile would need set_fs)
    writeFileSync(path, XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }));
    return path;
  };

  const good = [`Imported A ${t}`, `Imported B ${t}`];
  await page
    .locator('input[type="file"]')
    .setInputFiles(sheetFile([row(good[0]!, 'Beginner'), row(good[1]!, 'Expert')]));
  await page.getByRole('button', { name: 'Import' }).click();
  const errors = page.getByRole('dialog', { name: 'Errors' });
  await expect(errors).toContainText(/Row \d+ level /);
  await screenshot(page, 'md-certification-import-errors');
  await page.keyboard.press('Escape');
  await expect(errors).toBeHidden();

  await page
    .locator('input[type="file"]')
    .setInputFiles(sheetFile([row(good[0]!, 'Beginner'), row(good[1]!, 'Intermediate')]));
  await page.getByRole('button', { name: 'Import' }).click();
  await expect(page).toHaveURL(/\/certification\/list$/);
  await expect(toast(page, 'Record Added Successfully!')).toBeVisible();
  await page.getByRole('textbox', { name: 'Search' }).fill(t);
  for (const name of good) await expect(page.getByRole('row').filter({ hasText: name })).toBeVisible();
});

test('admin manages categories, services, VM prices and a training course', async ({ page }) => {
  const t = tag();
  await asAdmin(page);

  // categories
  await page.goto('/admin/categories');
  await page.getByRole('button', { name: 'Add Category' }).click();
  let dialog = page.getByRole('dialog', { name: 'Add Category' });
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('The name field is required.')).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Name' }).fill(`Category ${t}`);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await page.getByRole('textbox', { name: 'Search' }).fill(t);
  await page.getByRole('button', { name: `Edit Category ${t}` }).click();
  dialog = page.getByRole('dialog', { name: 'Edit Category' });
  await dialog.getByRole('textbox', { name: 'Name' }).fill(`Category ${t} renamed`);
  await dialog.getByRole('button', { name: 'Update' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('row').filter({ hasText: `Category ${t} renamed` })).toBeVisible();
  await page.getByRole('textbox', { name: 'Search' }).fill('');
  await screenshot(page, 'md-categories');

  // services: create the first option not taken yet, then edit it
  await page.goto('/service/list');
  await expect(page.getByRole('table', { name: 'Services' })).toBeVisible();
  await screenshot(page, 'md-service-list-before');
  const listed = await page.getByRole('table', { name: 'Services' }).innerText();
  const free = ['TRAINING (Per Hours)', 'POST-ASSESSMENT (Per Test)', 'PRE-ASSESSMENT (Per Test)'].find(
    (s) => !listed.includes(s),
  );
  if (free) {
    await page.getByRole('link', { name: 'Add Service' }).click();
    await expect(page).toHaveURL(/\/service\/create$/);
    await page.getByRole('combobox', { name: 'Service' }).selectOption({ label: free });
    await page.getByRole('textbox', { name: 'Price' }).fill('45');
    await screenshot(page, 'md-service-create');
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(page).toHaveURL(/\/service\/list$/);
    await expect(toast(page, 'Service create successfully!')).toBeVisible();
  }
  const serviceName = free ?? 'TRAINING (Per Hours)';
  await page.getByRole('link', { name: `Edit ${serviceName}` }).click();
  await expect(page).toHaveURL(/\/service\/edit\/\d+$/);
  await page.getByRole('textbox', { name: 'Price' }).fill('55.5');
  await screenshot(page, 'md-service-edit');
  await page.getByRole('button', { name: 'Update' }).click();
  await expect(page).toHaveURL(/\/service\/list$/);
  await expect(toast(page, 'Service create successfully!')).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: serviceName })).toContainText('55.50');
  await screenshot(page, 'md-service-list');

  // VM pricing
  await page.goto('/admin/vm-pricing-chart');
  await expect(page.getByRole('link', { name: 'Back to home' })).toHaveAttribute('href', '/admin/home');
  await screenshot(page, 'md-vm-pricing');
  await page.getByRole('button', { name: 'Update 2 GB pricing' }).click();
  dialog = page.getByRole('dialog', { name: 'Update VM pricing' });
  await dialog.getByRole('textbox', { name: 'Linux platform price (per hour)' }).fill('');
  await dialog.getByRole('button', { name: 'Update' }).click();
  await expect(dialog.getByText('The linux field is required.')).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Linux platform price (per hour)' }).fill('0.035');
  await screenshot(page, 'md-vm-pricing-modal');
  await dialog.getByRole('button', { name: 'Update' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('row', { name: /^1 2 GB / })).toContainText('0.035');

  // training course with a module and two topics
  await page.goto('/admin/create-training-course');
  await page.getByRole('button', { name: 'Add New Course' }).click();
  dialog = page.getByRole('dialog', { name: 'Add New Course' });
  await dialog.getByRole('textbox', { name: 'Course name' }).fill(`Course ${t}`);
  await dialog.getByRole('combobox', { name: 'Category' }).selectOption({ label: `Category ${t} renamed` });
  await dialog.getByRole('combobox', { name: 'Level' }).selectOption('Beginner');
  await dialog.getByRole('textbox', { name: 'Duration', exact: true }).fill('3');
  await dialog.getByRole('combobox', { name: 'Duration type' }).selectOption('Days');
  await dialog.getByRole('textbox', { name: 'Price' }).fill('300');
  await screenshot(page, 'md-training-course-modal');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await page.getByRole('button', { name: 'Add New Module' }).click();
  dialog = page.getByRole('dialog', { name: 'Add New Module' });
  await dialog.getByRole('textbox', { name: 'Module name' }).fill(`Module ${t}`);
  await dialog.getByRole('textbox', { name: 'Price' }).fill('100');
  await dialog.getByRole('textbox', { name: 'Duration' }).fill('2');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('combobox', { name: 'Module' }).locator('option:checked')).toHaveText(`Module ${t}`);
  for (const topic of [`Topic one ${t}`, `Topic two ${t}`]) {
    await page.getByRole('textbox', { name: 'Topic name' }).fill(topic);
    await page.getByRole('button', { name: 'Add Topic' }).click();
  }
  await expect(page.getByText('Topics (2)')).toBeVisible();
  await screenshot(page, 'md-training-course-create');
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(toast(page, 'Record Added Successfully!')).toBeVisible();
  await expect(page.getByText('Topics (0)')).toBeVisible();

  await page.getByRole('link', { name: 'View Course' }).click();
  await expect(page).toHaveURL(/\/admin\/training-course-list$/);
  await page.getByRole('textbox', { name: 'Search' }).fill(t);
  await page.getByRole('button', { name: `View Course ${t}` }).click();
  const popup = page.getByRole('dialog', { name: `Course ${t}` });
  await expect(popup).toContainText(`Topic two ${t}`);
  await screenshot(page, 'md-training-course-view');
  await popup.getByRole('button', { name: `Delete topic Topic one ${t}` }).click();
  await page.getByRole('dialog', { name: 'Delete topic' }).getByRole('button', { name: 'Yes' }).click();
  await expect(popup).toBeHidden();
  await expect(toast(page, 'Record deleted successfully!')).toBeVisible();
  await page.getByRole('button', { name: `View Course ${t}` }).click();
  await expect(popup).toContainText(`Topic two ${t}`);
  await expect(popup).not.toContainText(`Topic one ${t}`);
  await page.keyboard.press('Escape');
  await screenshot(page, 'md-training-course-list');

  await page.getByRole('button', { name: `Delete Course ${t}` }).click();
  await page.getByRole('dialog', { name: 'Delete course' }).getByRole('button', { name: 'Yes' }).click();
  await expect(toast(page, 'Course Deleted Successfully!')).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: `Course ${t}` })).toHaveCount(0);
});
