import { type APIRequestContext, type Browser, expect, type Page, test } from '@playwright/test';
import { axeViolations } from '../support/axe';
import { DEMO_PASSWORD, latestMailTo, login, screenshot, uniqueEmail } from '../support/session';
import { toast, trTag } from '../support/trainings';

// Signs in as the demo provider and trainer (one live session per account): one journey at a time.
test.describe.configure({ mode: 'serial' });

/** A 4×4 PNG: the server checks pictures by content. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAQAAAAECAIAAAAmkwkpAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEElEQVR4nGMwTjsDRwzEcQA64hZRB8tCjwAAAABJRU5ErkJggg==',
  'base64',
);

type Call = <T = Record<string, unknown>>(path: string, data?: Record<string, unknown>) => Promise<T>;

async function api(request: APIRequestContext, email: string, password = DEMO_PASSWORD): Promise<Call> {
  const res = await request.post('/api/login', { data: { email, password, is_previous: true, is_sso: false } });
  expect(res.ok(), await res.text()).toBe(true);
  const { success } = (await res.json()) as { success: { token: string } };
  return async <T>(path: string, data: Record<string, unknown> = {}) => {
    const r = await request.post(`/api/${path}`, { data, headers: { Authorization: `Bearer ${success.token}` } });
    expect(r.status(), `${path}: ${await r.text()}`).toBeLessThan(300);
    return (await r.json()) as T;
  };
}

async function signedIn(browser: Browser, email: string, password = DEMO_PASSWORD): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await login(page, email, password);
  await expect(page).not.toHaveURL(/\/login$/);
  return page;
}

/** Picks `option` in the Mantine select labelled `label`. */
async function choose(page: Page, label: string | RegExp, option: string) {
  await page.getByRole('textbox', { name: label }).click();
  await page.getByRole('option', { name: option }).click();
}

const local = (hoursAhead: number) => {
  const d = new Date(Date.now() + hoursAhead * 3600_000);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
};

test('a provider sources trainers through a take call; a trainer keeps their own data', async ({
  browser,
  request,
}) => {
  test.setTimeout(240_000);
  const tag = trTag();
  const skillName = `Kubernetes ${tag}`;

  // a second trainer, registered by the admin, chooses a password from the mailed link
  const admin = await api(request, 'admin@demo.test');
  const secondEmail = uniqueEmail('trainer');
  await admin('trainer-register', {
    first_name: 'Bala',
    last_name: `Second ${tag}`,
    email: secondEmail,
    mobile_no: '9876543210',
  });
  const probe = await (await browser.newContext()).newPage();
  const link = /\/reset-password\/([A-Za-z0-9_-]+)/.exec(await latestMailTo(probe, secondEmail));
  expect(link).not.toBeNull();
  await request.post('/api/reset-password', {
    data: { i_t: link![1], password: 'Chosen#Pass1', password_confirmation: 'Chosen#Pass1' },
  });

  // ---- the trainer (Tara) fills the profile, a bank account, a skill, a certificate and a reference
  const tara = await signedIn(browser, 'trainer@demo.test');
  await expect(tara.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  await expect(tara.getByRole('heading', { name: /Profile \d+% complete/ })).toBeVisible();
  await screenshot(tara, 'trn-dashboard');

  await tara.goto('/trainer/update-profile');
  await tara.getByRole('textbox', { name: 'Base Location' }).fill('Pune');
  await tara.getByRole('textbox', { name: 'PAN No' }).fill('abcde1234f');
  await expect(tara.getByRole('textbox', { name: 'PAN No' })).toHaveValue('ABCDE1234F');
  await tara.getByRole('textbox', { name: 'Address', exact: true }).fill('12 Lane, Pune');
  await tara
    .locator('input[type="file"]')
    .first()
    .setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: PNG });
  await tara.getByRole('button', { name: 'Update' }).click();
  await expect(tara).toHaveURL(/\/trainer\/profile$/);
  await expect(tara.getByRole('img', { name: 'Profile picture' })).toBeVisible();
  await expect(tara.getByRole('row', { name: /PAN No/ })).toContainText('ABCDE1234F');
  await screenshot(tara, 'trn-profile');

  await tara.goto('/trainer/add-bank-details');
  await tara.getByRole('textbox', { name: /Bank Name/ }).fill('State Bank of India');
  await tara.getByRole('textbox', { name: /Account Name/ }).fill('Tara Trainer');
  await tara.getByRole('textbox', { name: /Account Number/ }).fill('123456789012');
  await tara.getByRole('textbox', { name: /Account Type/ }).fill('Savings');
  await tara.getByRole('textbox', { name: /IFSC Code/ }).fill('sbin0001234');
  await tara.getByRole('button', { name: 'Submit' }).click();
  await expect(toast(tara, 'Record Added Successfully!')).toBeVisible();
  await expect(tara).toHaveURL(/\/trainer\/bank-details-list$/);
  await expect(tara.getByRole('cell', { name: 'XXXXXXXX9012' }).first()).toBeVisible();
  await screenshot(tara, 'trn-bank-list');

  await tara.goto('/trainer/skill-add');
  await expect(tara.getByRole('button', { name: 'Add Skill' })).toBeDisabled();
  await choose(tara, /^Category/, 'Cloud Computing');
  await tara.getByRole('textbox', { name: 'New skill name' }).fill(skillName);
  await tara.getByRole('button', { name: 'Add Skill' }).click();
  await expect(tara.getByRole('textbox', { name: /^Skill/ })).toHaveValue(skillName);
  await tara.getByRole('textbox', { name: /^Experience/ }).fill('5');
  await tara.getByRole('textbox', { name: /Rate per hour/ }).fill('60');
  await tara.getByRole('button', { name: 'Submit' }).click();
  await expect(tara).toHaveURL(/\/trainer\/skill-list$/);
  await expect(tara.getByRole('cell', { name: skillName }).first()).toBeVisible();
  await screenshot(tara, 'trn-skill-list');

  await tara.goto('/trainer/certificate/add');
  await choose(tara, /^Skill/, `${skillName} (Cloud Computing)`);
  await tara.getByRole('textbox', { name: /Certificate Name/ }).fill('CKA');
  await tara.getByLabel(/Certify Date/).fill(new Date().toISOString().slice(0, 10));
  await tara
    .locator('input[type="file"]')
    .first()
    .setInputFiles({ name: 'cka.png', mimeType: 'image/png', buffer: PNG });
  await tara.getByRole('button', { name: 'Submit' }).click();
  await expect(tara).toHaveURL(/\/trainer\/certificate\/list$/);
  await expect(tara.getByRole('cell', { name: 'CKA' }).first()).toBeVisible();
  await screenshot(tara, 'trn-certificates');

  await tara.goto('/trainer/reference/add');
  await choose(tara, /^Skill/, `${skillName} (Cloud Computing)`);
  await tara.getByRole('textbox', { name: /Company Name/ }).fill('Acme');
  await tara.getByLabel(/Training Conducted Date/).fill('2025-06-01');
  await tara.getByRole('textbox', { name: /Company Description/ }).fill('Cloud consulting');
  await tara.getByRole('button', { name: 'Submit' }).click();
  await expect(tara).toHaveURL(/\/trainer\/reference\/list$/);
  await expect(tara.getByRole('cell', { name: 'Acme' }).first()).toBeVisible();
  await expect(tara.locator('.mantine-Notification-root')).toHaveCount(0, { timeout: 8000 });
  expect(await axeViolations(tara)).toEqual([]);

  // the second trainer lists the same skill (through the calls)
  const bala = await api(request, secondEmail, 'Chosen#Pass1');
  const cats = await bala<{ list: { id: number; name: string }[] }>('skill-categories');
  const cloud = cats.list.find((c) => c.name === 'Cloud Computing')!;
  const skills = await bala<{ list: { id: number; name: string }[] }>('get-skills', { category_id: cloud.id });
  const skill = skills.list.find((s) => s.name === skillName)!;
  await bala('add-trainer-skill', {
    category_id: cloud.id,
    skill_id: skill.id,
    experience: 2,
    type: 'Year',
    rate_per_hours: 40,
  });

  // ---- the provider searches trainers by skill and creates a take call for both
  const provider = await api(request, 'provider@demo.test');
  const training = await provider<{ slug: string }>('create-training', {
    name: `Take Call Training ${tag}`,
    start_date: new Date(Date.now() + 3 * 86_400_000).toISOString(),
    end_date: new Date(Date.now() + 5 * 86_400_000).toISOString(),
    total_training_day: 2,
    number_of_participants: 10,
    description: 'Sourced through a take call',
    requirements: ['A laptop', 'Docker installed'],
  });
  const manager = await signedIn(browser, 'provider@demo.test');
  await manager.goto(`/trainer/take/call/${training.slug}`);
  await manager.getByRole('textbox', { name: 'Search' }).fill(skillName);
  await expect(manager.getByRole('list', { name: 'Trainers' }).getByRole('listitem')).toHaveCount(2);
  await manager.getByRole('checkbox', { name: 'Tara Trainer' }).check();
  await manager.getByRole('checkbox', { name: `Bala Second ${tag}` }).check();
  await manager.getByRole('textbox', { name: 'Call Title' }).fill(`Intro call ${tag}`);
  await manager.getByLabel(/Start Date & Time/).fill(local(24));
  await manager.getByLabel(/End Date & Time/).fill(local(25));
  await screenshot(manager, 'trn-search-trainers');
  await manager.getByRole('button', { name: 'Create Take Call' }).click();
  await expect(manager).toHaveURL(/\/take-calls$/);
  await expect(
    manager
      .getByRole('row')
      .filter({ hasText: `Intro call ${tag}` })
      .first(),
  ).toBeVisible();
  await screenshot(manager, 'trn-take-calls');

  // ---- Tara answers Available with three dates and confirms the requirements
  await tara.goto('/trainer-take-calls');
  await tara
    .getByRole('button', { name: `Confirm Intro call ${tag}` })
    .first()
    .click();
  const modal = tara.getByRole('dialog', { name: 'Confirm Take Call' });
  await choose(tara, /Select Status/, 'Available');
  await modal.getByLabel('Propose Date 1').fill(local(30));
  await modal.getByLabel('Propose Date 2').fill(local(31));
  await modal.getByLabel('Propose Date 3').fill(local(32));
  await modal.getByRole('textbox', { name: 'Remark' }).fill('Happy to');
  await screenshot(tara, 'trn-confirm-take-call');
  await modal.getByRole('button', { name: 'Submit' }).click();
  await expect(modal).toBeHidden();
  await expect(
    tara
      .getByRole('row')
      .filter({ hasText: `Intro call ${tag}` })
      .first(),
  ).toContainText('Available');
  await tara
    .getByRole('link', { name: `Requirements of Intro call ${tag}` })
    .first()
    .click();
  await tara.getByRole('checkbox', { name: 'A laptop' }).check();
  await tara.getByRole('checkbox', { name: 'Docker installed' }).check();
  await screenshot(tara, 'trn-requirements');
  await tara.getByRole('button', { name: 'Confirm Requirement' }).click();
  await expect(tara).toHaveURL(/\/trainer-take-calls$/);

  // ---- Start: the provider opens the take call's own room and moderates it; Tara (invited) joins
  await manager.goto('/take-calls');
  await manager
    .getByRole('link', { name: `Start the meeting of Intro call ${tag}` })
    .first()
    .click();
  await expect(manager).toHaveURL(/\/take-call-meeting\/\d+$/);
  await manager.getByRole('button', { name: 'Join meeting' }).click();
  await expect(manager.getByRole('button', { name: 'End meeting for all' })).toBeVisible();
  await tara
    .getByRole('link', { name: `Start the meeting of Intro call ${tag}` })
    .first()
    .click();
  await tara.getByRole('button', { name: 'Join meeting' }).click();
  await expect(tara.getByRole('button', { name: 'Leave' })).toBeVisible();
  await expect(tara.getByRole('button', { name: 'End meeting for all' })).toHaveCount(0);
  await expect(manager.getByText('Tara Trainer').first()).toBeVisible();
  await screenshot(manager, 'trn-take-call-meeting');
  await tara.getByRole('button', { name: 'Leave' }).click();
  await manager.getByRole('button', { name: 'Leave' }).click();
  await expect(manager).toHaveURL(/\/take-calls$/);

  // ---- the second trainer is not interested
  const second = await signedIn(browser, secondEmail, 'Chosen#Pass1');
  await second.goto('/trainer-take-calls');
  await second
    .getByRole('button', { name: `Confirm Intro call ${tag}` })
    .first()
    .click();
  await choose(second, /Select Status/, 'Not Interested');
  await second.getByRole('dialog', { name: 'Confirm Take Call' }).getByRole('button', { name: 'Submit' }).click();
  await expect(
    second
      .getByRole('row')
      .filter({ hasText: `Intro call ${tag}` })
      .first(),
  ).toContainText('Not Intrested');

  // ---- the provider sees the answers and assigns Tara
  await manager.goto('/take-calls');
  await manager
    .getByRole('link', { name: `Trainers of Intro call ${tag}` })
    .first()
    .click();
  await expect(manager.getByRole('row').filter({ hasText: 'Tara' }).first()).toContainText('Availble');
  await expect(manager.getByRole('row').filter({ hasText: 'Bala' }).first()).toContainText('Not Interested');
  await expect(manager.getByRole('button', { name: 'Assign Trainers' })).toHaveCount(0);
  await manager.getByRole('checkbox', { name: 'Select Tara Trainer' }).first().check();
  await screenshot(manager, 'trn-take-call-trainers');
  await manager.getByRole('button', { name: 'Assign Trainers' }).click();
  await expect(manager).toHaveURL(/\/take-calls$/);

  // ---- Tara finds the training under assigned trainings
  await tara.goto('/trainer/assigned-trainings');
  await expect(tara.getByText(`Take Call Training ${tag}`).first()).toBeVisible();
  await screenshot(tara, 'trn-assigned');
});
