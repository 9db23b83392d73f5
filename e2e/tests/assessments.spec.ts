import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import type * as XLSXTypes from 'xlsx';
import { axeViolations } from '../support/axe';
import { login, screenshot } from '../support/session';
import { toast } from '../support/trainings';

const XLSX = createRequire(import.meta.url)('xlsx') as typeof XLSXTypes;
test.describe.configure({ mode: 'serial' });

const HEADER = [
  'language_identified',
  'question_category',
  'question_type',
  'question',
  'option1',
  'option2',
  'option3',
  'option4',
  'correct_option',
  'level',
];

/** A bank in its own language: option 1 is always right ('Right …'). */
function bankFile(lang: string): string {
  const rows: (string | number)[][] = [HEADER];
  const levels = ['Beginner', 'Beginner', 'Beginner', 'Intermediate', 'Intermediate', 'Advanced'];
  levels.forEach((level, i) => {
    rows.push([
      lang,
      'Kubernetes',
      'Multiple choice',
      `${lang} question ${i + 1}?`,
      `Right ${i + 1}`,
      'Wrong A',
      'Wrong B',
      'Wrong C',
      1,
      level,
    ]);
  });
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(rows), 'Sheet1');
  const file = path.join(tmpdir(), `bank-${lang}.xlsx`);
  writeFileSync(file, XLSX.write(wb, { type: 'buffer', bookType: 'xlsx' }) as Buffer);
  return file;
}

async function providerSetup(request: APIRequestContext, name: string, opts: { assessments?: boolean } = {}) {
  const res = await request.post('/api/login', {
    data: { email: 'provider@demo.test', password: 'Demo@12345', is_previous: true, is_sso: false },
  });
  expect(res.ok()).toBe(true);
  const { success } = (await res.json()) as { success: { token: string } };
  const call = async <T>(p: string, data: Record<string, unknown>): Promise<T> => {
    const r = await request.post(`/api/${p}`, { data, headers: { Authorization: `Bearer ${success.token}` } });
    expect(r.status(), `${p}: ${await r.text()}`).toBeLessThan(300);
    return (await r.json()) as T;
  };
  const start = new Date(Date.now() + 10 * 60_000);
  const training = await call<{ id: number; slug: string }>('create-training', {
    name,
    start_date: start.toISOString(),
    end_date: new Date(start.getTime() + 2 * 86_400_000).toISOString(),
    total_training_day: 2,
    number_of_participants: 20,
    description: `About ${name}`,
    requirements: [],
    pre_assessment: opts.assessments === false ? 0 : 1,
    post_assessment: opts.assessments === false ? 0 : 1,
  });
  await call('lp/add-training-user', {
    first_name: 'Liam',
    last_name: 'Learner',
    mobile_no: '9876543210',
    email: 'learner@demo.test',
    slug: training.slug,
  });
  return { ...training, call };
}

const seconds = (text: string | null) => {
  const [m, s] = (text ?? '').trim().split(':').map(Number);
  return (m ?? 0) * 60 + (s ?? 0);
};

/** Signs out whoever is signed in, then signs in as `email`. */
async function switchTo(page: Page, email: string) {
  await page.goto('/login');
  // the form and the 'already signed in' notice render together, so once the form shows, the
  // notice's absence means nobody is signed in (isVisible() alone would answer before the page draws)
  await expect(page.getByRole('textbox', { name: 'Email', exact: true })).toBeVisible();
  const logout = page.getByRole('banner').getByRole('button', { name: 'Logout' });
  if (await page.getByTestId('already-notice').isVisible()) {
    await logout.click();
    await expect(page.getByRole('banner').getByRole('button', { name: 'Logout' })).toBeHidden();
  }
  await login(page, email);
  await expect(page).not.toHaveURL(/\/login$/);
}

/** Answers the current question with the keyboard only: focus the chosen option's radio, Space. */
async function answerWithKeyboard(page: Page, option: string) {
  const radio = page.getByRole('group', { name: /^Question/ }).getByRole('radio', { name: option });
  await radio.focus();
  await page.keyboard.press('Space');
  await expect(radio).toBeChecked();
  await expect(page.getByText('Answer saved.')).toBeVisible();
}

test('a provider builds a pre-test by hand and a post-test automatically; the learner takes both; the provider sees the gain', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const tag = randomBytes(3).toString('hex');
  const lang = `Lang${tag}`;
  const name = `Assessed Training ${tag}`;
  const training = await providerSetup(page.request, name);

  // the provider uploads a bank from the template
  await login(page, 'provider@demo.test');
  await expect(page).not.toHaveURL(/\/login$/);
  await page.goto('/question-bank/add');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: /template/i }).click();
  expect((await download).suggestedFilename()).toMatch(/\.xlsx$/);
  await page.locator('input[type="file"]').setInputFiles(bankFile(lang));
  await page.getByRole('button', { name: 'Import' }).click();
  await expect(toast(page, 'Record Added Successfully!')).toBeVisible();
  await page.goto('/question-bank/show');
  await page
    .getByRole('searchbox')
    .or(page.getByPlaceholder(/search/i))
    .first()
    .fill(lang);
  await expect(page.getByText(`${lang} question 6?`)).toBeVisible();
  await screenshot(page, 'assessments-bank');

  // a pre-test by hand: three questions
  await page.goto(`/assessment/add/${training.slug}`);
  await expect(page.getByRole('tab', { name: 'Random' })).toBeVisible();
  await page.getByRole('textbox', { name: 'Language' }).first().click();
  await page.getByRole('option', { name: lang }).click();
  for (const n of [1, 2, 4])
    await page.getByRole('checkbox', { name: new RegExp(`^${lang} question ${n}\\?`) }).check();
  await page.getByRole('button', { name: 'Save Random Test' }).click();
  await expect(toast(page, /Record Added Successfully! \(3 questions\)/)).toBeVisible();
  await expect(page.getByText(/Current pre-assessment: picked by hand, 3 questions, 30 minutes/)).toBeVisible();
  // a post-test drawn automatically: 2 beginner, 1 intermediate, 1 advanced
  await page.getByText('Post-assessment', { exact: true }).click();
  await page.getByRole('tab', { name: 'Automatic' }).click();
  await page.getByRole('textbox', { name: 'Language' }).click();
  await page.getByRole('option', { name: lang }).click();
  await page.getByRole('textbox', { name: 'Beginner questions' }).fill('2');
  await page.getByRole('textbox', { name: 'Intermediate questions' }).fill('1');
  await page.getByRole('textbox', { name: 'Advanced questions' }).fill('1');
  await page.getByRole('button', { name: 'Save Automatic Test' }).click();
  await expect(toast(page, /Record Added Successfully! \(4 questions\)/)).toBeVisible();
  await expect(page.getByText(/Current post-assessment: drawn per learner, 4 questions/)).toBeVisible();
  await screenshot(page, 'assessments-build');

  // the learner takes the pre-test, reloads mid-test, resumes with the same time left
  await switchTo(page, 'learner@demo.test');
  await page.goto('/my-trainings');
  await page.getByRole('link', { name: `Tests of ${name}` }).click();
  await page.getByRole('link', { name: 'Start Pre-assessment' }).click();
  const timer = page.getByRole('timer');
  await expect(timer).toHaveText(/^(30:00|29:5\d)$/);
  await expect(page.getByRole('group', { name: /^Question 1 of 3/ })).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);
  await answerWithKeyboard(page, 'Right 1');
  await page.getByRole('button', { name: 'Next' }).focus();
  await page.keyboard.press('Enter');
  await answerWithKeyboard(page, 'Wrong B');
  const before = seconds(await timer.textContent());
  const reloadedAt = Date.now();
  await page.reload();
  await expect(page.getByRole('group', { name: /^Question 3 of 3/ })).toBeVisible();
  const after = seconds(await page.getByRole('timer').textContent());
  const elapsed = Math.round((Date.now() - reloadedAt) / 1000);
  expect(Math.abs(before - elapsed - after)).toBeLessThanOrEqual(2);
  await screenshot(page, 'assessments-test-page');
  await answerWithKeyboard(page, 'Right 4');
  await page.getByRole('button', { name: 'Submit Test' }).focus();
  await page.keyboard.press('Enter');
  // the confirmation's own button, with the keyboard too
  await expect(page.getByRole('dialog', { name: 'Submit the test?' })).toContainText(
    'You have answered all 3 questions.',
  );
  await page.getByRole('dialog').getByRole('button', { name: 'Submit' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Your score: 2 of 3 (67%)' })).toBeVisible();

  // the post-test: four drawn questions, all answered right
  await page.goto(`/assessment?slug=${training.slug}`);
  await page.getByRole('link', { name: 'Start Post-assessment' }).click();
  for (let i = 1; i <= 4; i++) {
    const group = page.getByRole('group', { name: new RegExp(`^Question ${i} of 4`) });
    await expect(group).toBeVisible();
    await group.getByRole('radio', { name: /^Right/ }).check();
    await expect(page.getByText('Answer saved.')).toBeVisible();
    if (i < 4) await page.getByRole('button', { name: 'Next' }).click();
  }
  await page.getByRole('button', { name: 'Submit Test' }).click();
  await page.getByRole('dialog', { name: 'Submit the test?' }).getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByRole('heading', { name: 'Your score: 4 of 4 (100%)' })).toBeVisible();

  // the provider sees both scores, the gain and the per-question chart
  await switchTo(page, 'provider@demo.test');
  await page.goto(`/assessment/add/${training.slug}`);
  await page.getByRole('tab', { name: 'Results' }).click();
  const row = page
    .getByRole('table', { name: 'Scores per learner' })
    .getByRole('row')
    .filter({ hasText: 'Liam Learner' });
  await expect(row).toContainText('2/3 (67%)');
  await expect(row).toContainText('4/4 (100%)');
  await expect(row).toContainText('+33');
  await expect(page.getByRole('img', { name: /Right answers per question/ })).toBeVisible();
  await expect(
    page.getByRole('img', { name: /Pre and post scores per learner: Liam Learner 67% to 100%/ }),
  ).toBeVisible();
  await screenshot(page, 'assessments-results');
});

// issue 32: a training created without assessments gets its pre-test switched on from the test page;
// the refused save shows why, the learner confirms the submit and reads the answers by their text
for (const width of [1280, 360]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: width > 800 ? 900 : 780 } });

    test('a pre-test on an existing training without assessments: refused, switched on, built, taken, answers by text', async ({
      page,
    }) => {
      test.setTimeout(150_000);
      const tag = randomBytes(3).toString('hex');
      const lang = `Sw${tag}`;
      const name = `Switched Training ${tag}`;
      const training = await providerSetup(page.request, name, { assessments: false });
      for (const n of [1, 2, 3]) {
        await training.call('add-question', {
          language_identified: lang,
          question_category: 'Geography',
          question_type: 'Multiple choice',
          question: `${lang} capital ${n}?`,
          option1: `Wrong city ${n}`,
          option2: `Right city ${n}`,
          option3: 'Atlantis',
          option4: 'El Dorado',
          correct_option: 2,
          level: 'Beginner',
        });
      }

      await login(page, 'provider@demo.test');
      await expect(page).not.toHaveURL(/\/login$/);
      await page.goto(`/assessment/add/${training.slug}`);
      await expect(page.getByRole('tab', { name: 'Random' })).toBeVisible();
      await expect(page.getByText('Pick questions: you choose the questions by hand')).toBeVisible();
      await page.getByRole('textbox', { name: 'Language' }).first().click();
      await page.getByRole('option', { name: lang }).click();
      for (const n of [1, 2])
        await page.getByRole('checkbox', { name: new RegExp(`^${lang} capital ${n}\\?`) }).check();
      await page.getByLabel('Show learners which answers were right after they submit').check();
      // the save is refused, and the page says why and where the setting is
      await page.getByRole('button', { name: 'Save Random Test' }).click();
      await expect(page.getByRole('alert').filter({ hasText: 'does not include a pre-assessment' })).toBeVisible();
      await screenshot(page, `assessments-switch-on-refused-${width}`);
      await page.getByRole('button', { name: 'Switch on pre-assessment' }).click();
      await expect(toast(page, 'Training updated successfully!')).toBeVisible();
      await expect(page.getByRole('button', { name: 'Switch on pre-assessment' })).toBeHidden();
      await page.getByRole('button', { name: 'Save Random Test' }).click();
      await expect(toast(page, /Record Added Successfully! \(2 questions\)/)).toBeVisible();
      await expect(page.getByText(/Current pre-assessment: picked by hand, 2 questions/)).toBeVisible();
      await expect(page.getByRole('alert')).toHaveCount(0);
      await screenshot(page, `assessments-switch-on-built-${width}`);
      // the same switch sits in the training's Edit form on All Trainings, beside its details
      await page.goto(`/all-trainings?search=${encodeURIComponent(name)}`);
      await page.getByRole('button', { name: `More actions for ${name}` }).click();
      await page.getByRole('menuitem', { name: 'Edit' }).click();
      const edit = page.getByRole('dialog', { name: `Edit ${name}` });
      await expect(edit.getByRole('checkbox', { name: 'Pre Assessment' })).toBeChecked();
      await expect(edit.getByRole('checkbox', { name: 'Post Assessment' })).not.toBeChecked();
      await expect(edit.getByRole('textbox', { name: 'Name' })).toHaveValue(name);
      await screenshot(page, `assessments-edit-training-${width}`);
      await edit.getByRole('button', { name: 'Cancel' }).click();
      await expect(edit).toBeHidden();

      // the learner answers one of two, confirms the submit and reads the answers by their text
      // the learner signs in on this browser (the phone's header keeps Logout in its menu, so the
      // provider's stored session is dropped instead of clicking it)
      await page.evaluate(() => {
        localStorage.clear();
        sessionStorage.clear();
      });
      await login(page, 'learner@demo.test');
      await expect(page).not.toHaveURL(/\/login$/);
      await page.goto(`/assessment?slug=${training.slug}`);
      await page.getByRole('link', { name: 'Start Pre-assessment' }).click();
      const first = page.getByRole('group', { name: /^Question 1 of 2/ });
      await expect(first).toBeVisible();
      const question = (await first.locator('legend').textContent())?.match(/capital (\d)\?/)?.[1];
      await first.getByRole('radio', { name: `Right city ${question}` }).check();
      await expect(page.getByText('Answer saved.')).toBeVisible();
      await page.getByRole('button', { name: 'Submit Test' }).click();
      const ask = page.getByRole('dialog', { name: 'Submit the test?' });
      await expect(ask).toContainText('You have not answered 1 of the 2 questions.');
      await screenshot(page, `assessments-submit-confirm-${width}`);
      await ask.getByRole('button', { name: 'Submit' }).click();
      await expect(page.getByRole('heading', { name: 'Your score: 1 of 2 (50%)' })).toBeVisible();
      // a table at 1280 px, cards (a list) on a phone
      const answers = page.getByRole(width > 800 ? 'table' : 'list', { name: 'Your answers' });
      await expect(answers).toContainText(`Right city ${question}`);
      await expect(answers).toContainText('Not answered');
      await expect(answers).not.toContainText(/Option \d/);
      await screenshot(page, `assessments-result-texts-${width}`);
    });
  });
}
