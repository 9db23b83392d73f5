import { randomBytes, randomInt } from 'node:crypto';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { axeViolations } from '../support/axe';
import { login, screenshot, uniqueEmail } from '../support/session';

// Both journeys act as provider@demo.test through the API; one session per account, so one after another.
test.describe.configure({ mode: 'serial' });

const tag = () => randomBytes(3).toString('hex');
const NEW_PASSWORD = 'Learner#2026';

interface MailRow {
  channel: string;
  to: string;
  subject: string;
  text: string;
}

async function mailbox(request: APIRequestContext): Promise<MailRow[]> {
  const res = await request.post('/api/dev/mailbox', { data: {} });
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { list: MailRow[] }).list;
}

/** The newest outbox row to `to` (optionally on a channel) whose text matches `pattern`: the first group. */
async function waitForText(request: APIRequestContext, to: string, pattern: RegExp, channel?: string): Promise<string> {
  let found: string | undefined;
  await expect
    .poll(
      async () => {
        const row = (await mailbox(request)).find(
          (m) => m.to === to && (!channel || m.channel === channel) && pattern.test(m.text),
        );
        found = row ? pattern.exec(row.text)?.[1] : undefined;
        return found;
      },
      { timeout: 15_000 },
    )
    .toBeTruthy();
  return found as string;
}

/** The provider's API, signed in with a bearer token. */
async function providerApi(request: APIRequestContext) {
  const res = await request.post('/api/login', {
    data: { email: 'provider@demo.test', password: 'Demo@12345', is_previous: true, is_sso: false },
  });
  expect(res.ok()).toBe(true);
  const { success } = (await res.json()) as { success: { token: string } };
  return async <T = Record<string, unknown>>(path: string, data: Record<string, unknown>): Promise<T> => {
    const r = await request.post(`/api/${path}`, { data, headers: { Authorization: `Bearer ${success.token}` } });
    expect(r.status(), `${path}: ${await r.text()}`).toBeLessThan(300);
    return (await r.json()) as T;
  };
}

async function createTraining(call: Awaited<ReturnType<typeof providerApi>>, name: string) {
  const start = new Date(Date.now() + 10 * 60_000);
  const end = new Date(start.getTime() + 2 * 86_400_000);
  return call<{ id: number; slug: string }>('create-training', {
    name,
    start_date: start.toISOString(),
    end_date: end.toISOString(),
    total_training_day: 2,
    number_of_participants: 20,
    description: `About ${name}`,
    requirements: [],
  });
}

test('student registration: both codes from the mailbox, verified, registered; the set-password mail arrives', async ({
  page,
}) => {
  const call = await providerApi(page.request);
  const name = `Open Training ${tag()}`;
  const training = await createTraining(call, name);
  await call('lp-public-training', { id: training.id });

  const email = uniqueEmail('student');
  const mobile = `98${String(randomInt(10_000_000, 99_999_999))}`;
  await page.goto(`/training-register/${training.slug}`);
  await expect(page.getByRole('heading', { name: 'Training Registration' })).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);
  await page.getByRole('textbox', { name: 'First name' }).fill('Stella');
  await page.getByRole('textbox', { name: 'Last name' }).fill('Student');
  await page.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
  await page.getByRole('textbox', { name: 'Mobile no' }).fill(mobile);

  // submitting before verifying is refused with the banner
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Verify Email Or Mobile No.')).toBeVisible();

  await page.getByRole('button', { name: 'Send OTP to email' }).click();
  await expect(page.getByText('OTP sent to your email.')).toBeVisible();
  await page.getByRole('button', { name: 'Send OTP to mobile' }).click();
  await expect(page.getByText('OTP sent to your mobile no.')).toBeVisible();
  const emailCode = await waitForText(page.request, email, /code is (\d{6})/);
  const smsCode = await waitForText(page.request, mobile, /^(\d{6}) is your/, 'sms');

  // a wrong code first
  const wrong = smsCode === '000000' ? '111111' : '000000';
  await page.getByRole('textbox', { name: 'Mobile OTP' }).fill(wrong);
  await page.getByRole('button', { name: 'Verify mobile OTP' }).click();
  await expect(page.getByText('Incorrect OTP try again')).toBeVisible();
  await screenshot(page, 'lr-register-wrong-otp');

  await page.getByRole('textbox', { name: 'Mobile OTP' }).fill(smsCode);
  await page.getByRole('button', { name: 'Verify mobile OTP' }).click();
  await expect(page.getByText('Mobile no is verified')).toBeVisible();
  await page.getByRole('textbox', { name: 'Email OTP' }).fill(emailCode);
  await page.getByRole('button', { name: 'Verify email OTP' }).click();
  await expect(page.getByText('Email is verified')).toBeVisible();
  await screenshot(page, 'lr-register-verified');

  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText(`Welcome Stella! You are registered for ${name}.`)).toBeVisible();
  await expect(page.getByRole('link', { name: 'Go to Login' })).toHaveAttribute('href', '/login');
  await screenshot(page, 'lr-register-done');

  const link = await waitForText(page.request, email, /(\/reset-password\/[A-Za-z0-9_-]+)/);
  expect(link).toMatch(/^\/reset-password\//);
});

async function setPasswordAndLogin(page: Page, email: string) {
  const link = await waitForText(page.request, email, /(\/reset-password\/[A-Za-z0-9_-]+)/);
  await page.goto(link);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(NEW_PASSWORD);
  await page.getByRole('textbox', { name: 'Confirm password' }).fill(NEW_PASSWORD);
  await page.getByRole('button', { name: /reset/i }).click();
  await expect(page.getByText('Your password reset successfully!')).toBeVisible();
  await login(page, email, NEW_PASSWORD);
  await expect(page).toHaveURL(/\/lpu-home$/);
}

test('learner: my trainings, waiting dialog, join, rating, certificate download and verification', async ({
  page,
  context,
}) => {
  const call = await providerApi(page.request);
  const t = tag();
  const name = `Learner Journey ${t}`;
  const topicName = `Topic ${t}`;
  const training = await createTraining(call, name);
  await call('add-training-syllabus', { topic_name: topicName, slug: training.slug });
  const email = uniqueEmail('learner');
  await call('lp/add-training-user', {
    first_name: 'Lena',
    last_name: `Learner ${t}`,
    mobile_no: '9876543210',
    email,
    slug: training.slug,
  });

  await setPasswordAndLogin(page, email);
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: name })).toBeVisible();
  await expect(page.getByText('No virtual machine is assigned yet.')).toBeVisible();
  await screenshot(page, 'lr-lpu-home');

  await page.goto('/my-trainings');
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toBeVisible();
  await expect(row.getByRole('link', { name: 'Certificate' })).toHaveCount(0);
  expect(await axeViolations(page)).toEqual([]);
  await screenshot(page, 'lr-my-trainings');

  await row.getByRole('button', { name: `Start ${name}` }).click();
  await expect(page).toHaveURL(new RegExp(`/user/training-details/${training.slug}$`));
  await expect(page.getByRole('row').filter({ hasText: topicName })).toContainText('Schedule');

  // not started: the waiting dialog; Join Again asks again
  await page.getByRole('button', { name: `Join ${topicName}` }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText('Waiting for the host to start the training, please standby !')).toBeVisible();
  await page.waitForTimeout(400); // let the dialog finish fading in
  await screenshot(page, 'lr-waiting-dialog');
  await dialog.getByRole('button', { name: 'Join Again' }).click();
  await expect(dialog.getByText('Waiting for the host to start the training, please standby !')).toBeVisible();
  await dialog.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(dialog).toBeHidden();

  // the provider starts the topic: Join records attendance and opens the conference window
  const topics = await call<{ list: { id: number }[] }>('get-training-syllabus', { slug: training.slug });
  const topicId = topics.list[0]!.id;
  await call('update-training-start-status', { id: topicId });
  const popupPromise = context.waitForEvent('page');
  await page.getByRole('button', { name: `Join ${topicName}` }).click();
  const popup = await popupPromise;
  // a new window starts at about:blank; wait for its navigation rather than polling its location
  await popup.waitForURL(new RegExp(`/conference/${training.slug}$`));
  await popup.close();
  const topicRow = page.getByRole('row').filter({ hasText: topicName });
  await expect(topicRow).toContainText('Starting');
  await expect(topicRow).toContainText(/Joined: \d{2} \w{3} \d{4}/);

  // completed: rate it 4 stars
  await call('update-training-start-status', { id: topicId });
  await page.reload();
  await expect(topicRow).toContainText('Completed');
  const fourId = await topicRow.locator('input[type="radio"][value="4"]').getAttribute('id');
  await topicRow.locator(`label[for="${fourId}"]`).click();
  await expect(page.getByText('Rating added successfully!')).toBeVisible();
  await expect(topicRow.locator('input[type="radio"][value="4"]')).toBeChecked();
  await screenshot(page, 'lr-training-details');

  // the certificate is not allowed yet
  await page.goto(`/certificate/${training.slug}`);
  await expect(page.getByText('Certificate download is not enabled for you in this training yet.')).toBeVisible();
  await screenshot(page, 'lr-certificate-refused');

  // the provider allows it
  const users = await call<{ list: { id: number; email: string }[] }>('lp/get-training-users', {
    slug: training.slug,
  });
  const enrolment = users.list.find((u) => u.email === email);
  await call('lpu/download-certificate-access', { id: enrolment!.id });

  await page.goto('/my-trainings');
  const certLink = page.getByRole('row').filter({ hasText: name }).getByRole('link', { name: 'Certificate' });
  await certLink.click();
  await expect(page).toHaveURL(new RegExp(`/certificate/${training.slug}$`));
  await expect(page.getByRole('region', { name: 'Certificate of completion' })).toContainText(`Lena Learner ${t}`);
  await screenshot(page, 'lr-certificate');
  const downloadPromise = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download PDF' }).click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toMatch(/^certificate-TL-.+\.pdf$/);

  const verifyHref = await page.getByRole('link', { name: 'Verify' }).getAttribute('href');
  await page.getByRole('link', { name: 'Verify' }).click();
  await expect(page).toHaveURL(new RegExp(`${verifyHref}$`));
  await expect(page.getByText('Verified', { exact: true })).toBeVisible();
  const facts = page.getByRole('region', { name });
  await expect(facts).toContainText(`Lena Learner ${t}`);
  await expect(facts).toContainText('Issued by');
  expect(await axeViolations(page)).toEqual([]);
  await screenshot(page, 'lr-certificate-verify');

  await page.goto('/certificate/verify/TL-0000-NOPE00');
  await expect(page.getByText('NO Certificate Found')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Contact' })).toBeVisible();
  await screenshot(page, 'lr-certificate-not-found');
});
