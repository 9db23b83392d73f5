import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import * as XLSX from 'xlsx';
import { login, screenshot } from '../support/session';

/**
 * Cloud labs on the default container engine (a real container per lab, its shell and VNC desktop
 * reached through our sockets): the provider creates a Linux lab and assigns it by Excel; the learner
 * opens it from the dashboard, runs a command in the terminal, writes a file and draws on the
 * desktop; the provider stops it and sees the metered usage; the file is there after a new start; an
 * idle lab stops by itself; deleting it removes its container and its home volume.
 */
test.describe.configure({ mode: 'serial' });

const bearer = async (page: Page) => (await page.evaluate(() => localStorage.getItem('token'))) as string;
async function api<T>(page: Page, pathName: string, data: Record<string, unknown> = {}): Promise<T> {
  const res = await page.request.post(`/api/${pathName}`, {
    data,
    headers: { Authorization: `Bearer ${await bearer(page)}` },
  });
  expect(res.status(), `${pathName}: ${await res.text()}`).toBeLessThan(300);
  return (await res.json()) as T;
}

/** The engine's objects labelled with this lab's name (containers, volumes), through the docker CLI. */
const engineObjects = (kind: 'ps' | 'volume ls', vmName: string) =>
  spawnSync(
    'docker',
    [...kind.split(' '), ...(kind === 'ps' ? ['-a'] : []), '-q', '--filter', `label=org.trainlab.lab=${vmName}`],
    {
      encoding: 'utf8',
    },
  )
    .stdout.split('\n')
    .filter(Boolean);

let labName = '';
test.afterAll(() => {
  // a journey that failed half-way leaves its lab: remove its container and volume (this lab's only)
  if (/^tl-[0-9a-f]{10}$/.test(labName)) {
    for (const id of engineObjects('ps', labName)) spawnSync('docker', ['rm', '-f', id]);
    for (const id of engineObjects('volume ls', labName)) spawnSync('docker', ['volume', 'rm', '-f', id]);
  }
});

test('provider creates and assigns a Linux lab; the learner uses its terminal and desktop; usage is metered', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  // A tenant without a lab account: create-vm sends it to registration, then sign-in. Journeys share
  // one server, and earlier ones give the demo provider a lab account; no journey gives the
  // demo organization one, so it shows the way in.
  const orgLabs = `orglabs${randomBytes(3).toString('hex')}`;
  await login(page, 'org@demo.test');
  await expect(page).not.toHaveURL(/\/login$/);
  await page.goto('/create-vm');
  await expect(page).toHaveURL(/\/register-cloud-account$/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.getByRole('textbox', { name: 'Username' }).fill(orgLabs);
  await page.getByRole('textbox', { name: 'Email' }).fill(`${orgLabs}@demo.test`);
  await page.getByRole('textbox', { name: 'First Name' }).fill('Demo');
  await page.getByRole('textbox', { name: 'Last Name' }).fill('Labs');
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill('Labs#2026pw');
  await page.getByRole('textbox', { name: 'Confirm Password' }).fill('Labs#2026pw');
  await screenshot(page, 'labs-register');
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page).toHaveURL(/\/authorize-cloud-account$/);
  // registering signed the account in (issue 41): no second sign-in, one click back to Create VM
  await expect(page.getByText('Your lab account is ready')).toBeVisible();
  await page.getByRole('link', { name: 'Continue to Create VM' }).click();
  await expect(page).toHaveURL(/\/create-vm$/);

  // the provider's lab account: registered here unless an earlier journey did
  await page.evaluate(() => localStorage.clear());
  await page.context().clearCookies();
  await login(page, 'provider@demo.test');
  await expect(page).toHaveURL(/\/learning-provider$/);
  const account = await api<{ exist: number; authorized: number }>(page, 'check-gc-ac-exist');
  if (!account.exist) {
    await api(page, 'register-gc-account', {
      username: 'demolabs',
      email: 'labs@demo.test',
      first_name: 'Demo',
      last_name: 'Labs',
      password: 'Labs#2026pw',
      password2: 'Labs#2026pw',
    });
  }
  if (!account.authorized) await api(page, 'authorize-gc-account', { username: 'demolabs', password: 'Labs#2026pw' });
  await page.goto('/create-vm');
  await expect(page).toHaveURL(/\/create-vm$/);

  // the live price follows the form a second after input
  await expect(page.getByTestId('vm-price')).toContainText('per hour');
  const before = await page.getByTestId('vm-price').innerText();
  await page.getByRole('textbox', { name: 'RAM (GB)' }).click();
  await page.getByRole('option', { name: '4 GB', exact: true }).click();
  await expect(page.getByTestId('vm-price')).not.toHaveText(before, { timeout: 3000 });
  await page.getByRole('textbox', { name: 'RAM (GB)' }).click();
  await page.getByRole('option', { name: '2 GB', exact: true }).click();
  await screenshot(page, 'labs-create-vm');
  await page.getByRole('button', { name: 'Create VM' }).click();
  await expect(page).toHaveURL(/\/vm-list$/, { timeout: 30_000 });
  await expect(page.getByText('the passwords are shown only once')).toBeVisible();
  const vmName = (
    await page
      .locator('code', { hasText: /^tllab_/ })
      .first()
      .innerText()
  ).replace('tllab_', 'tl-');
  labName = vmName;
  expect(engineObjects('ps', vmName)).toHaveLength(1);
  await screenshot(page, 'labs-vm-list');

  // assign by Excel to the demo learner
  await page.goto('/assign-vm-to-user');
  const dir = mkdtempSync(path.join(tmpdir(), 'labs-e2e-'));
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(
    book,
    XLSX.utils.json_to_sheet(
      [{ firstname: 'Liam', lastname: 'Learner', email: 'learner@demo.test', mobileno: '9876543210' }],
      {
        header: ['firstname', 'lastname', 'email', 'mobileno'],
      },
    ),
    'Sheet1',
  );
  const file = path.join(dir, 'vm-users.xlsx');
  writeFileSync(file, XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }));
  await page.locator('input[type="file"]').setInputFiles(file);
  await page.getByRole('button', { name: 'Import' }).click();
  await expect(page.getByText('Record Added Successfully!').first()).toBeVisible();
  await screenshot(page, 'labs-assign');

  // the learner: dashboard card → Start VM starts and opens the lab in one click
  const learnerContext = await browser.newContext();
  const learner = await learnerContext.newPage();
  await login(learner, 'learner@demo.test');
  await expect(learner).toHaveURL(/\/lpu-home$/);
  const card = learner.locator('section', { has: learner.getByRole('heading', { name: 'Virtual Machine' }) });
  await expect(card.getByText(new RegExp(vmName))).toBeVisible();
  // the card lists every lab assigned (the demo lab too): this lab's own Start VM
  await card
    .getByTestId('learner-vm')
    .filter({ hasText: vmName })
    .getByRole('link', { name: /^Start VM/ })
    .click();
  await expect(learner).toHaveURL(new RegExp(`/vm/${vmName}\\?start=1$`));
  const terminal = learner.getByTestId('lab-terminal');
  await expect(terminal).toBeVisible({ timeout: 30_000 });
  await expect(terminal.locator('.xterm-rows')).toContainText('$', { timeout: 20_000 });
  await terminal.click();
  await learner.keyboard.type('echo hello-lab\n');
  await expect(terminal.locator('.xterm-rows > div').filter({ hasText: /^\s*hello-lab\s*$/ })).toHaveCount(1, {
    timeout: 15_000,
  });
  await learner.keyboard.type('echo kept-across-starts > ~/kept.txt\n');
  await screenshot(learner, 'labs-terminal');

  // the desktop draws, and changes after input
  await learner.getByRole('tab', { name: 'Desktop' }).click();
  const desktop = learner.getByTestId('lab-desktop');
  const canvas = desktop.locator('canvas');
  await expect(canvas).toBeVisible({ timeout: 20_000 });
  await learner.waitForTimeout(1500);
  const shotA = await desktop.screenshot();
  await canvas.click({ position: { x: 200, y: 120 } });
  await learner.keyboard.type('echo drawn-on-the-desktop\n', { delay: 20 });
  await learner.waitForTimeout(1500);
  const shotB = await desktop.screenshot();
  expect(Buffer.compare(shotA, shotB)).not.toBe(0);
  await screenshot(learner, 'labs-desktop');

  // Close Connection on a running lab asks first (it is billed while it runs); kept running → home
  await learner.getByRole('button', { name: 'Close Connection' }).click();
  const ask = learner.getByRole('dialog', { name: 'Stop the VM too?' });
  await expect(ask).toContainText('billed by the hour');
  await screenshot(learner, 'labs-close-ask');
  await ask.getByRole('button', { name: 'Keep it running' }).click();
  await expect(learner).toHaveURL(/\/lpu-home$/);
  await learnerContext.close();

  // the provider stops the lab and sees the usage row and its cost
  await page.goto('/vm-list');
  // this lab's own row: the demo lab beside it shows Start already
  const labRow = page.getByRole('row').filter({ hasText: vmName });
  await labRow.getByRole('button', { name: /^Stop / }).click();
  await expect(labRow.getByRole('button', { name: /^Start / })).toBeVisible({ timeout: 20_000 });
  await page.goto(`/vm-details/${vmName}`);
  const usage = page.getByRole('table').last();
  // rows: header, Assign, the run (Stop)
  const stopped = usage.getByRole('row').nth(2);
  await expect(stopped).toContainText('Stop');
  await expect(stopped).toContainText('Liam Learner');
  await expect(stopped).toContainText('₹');
  await screenshot(page, 'labs-vm-details');

  // an idle lab stops by itself (idle limit in seconds for this tenant)
  await api(page, 'update-lab-settings', { idle_stop_seconds: 3 });
  await api(page, 'vm-start-stop', { action: 'start', name: vmName, is_user: 0 });
  await expect
    .poll(
      async () =>
        (await api<{ list: { vm_name: string; status: number }[] }>(page, 'vm-list', {})).list.find(
          (v) => v.vm_name === vmName,
        )?.status,
      { timeout: 30_000, intervals: [1000] },
    )
    .toBe(2);
  const details = await api<{ usage: { status: number }[] }>(page, 'vm-details', { name: vmName });
  expect(details.usage.filter((u) => u.status === 3)).toHaveLength(2);

  // started again (no idle stop now): the file the learner wrote is in the home
  await api(page, 'update-lab-settings', { idle_stop_seconds: 1800 });
  await api(page, 'vm-start-stop', { action: 'start', name: vmName, is_user: 0 });
  await page.goto(`/vm/${vmName}`);
  await page.getByRole('button', { name: 'Start Connection' }).click();
  const again = page.getByTestId('lab-terminal');
  await expect(again.locator('.xterm-rows')).toContainText('$', { timeout: 30_000 });
  await again.click();
  await page.keyboard.type('cat ~/kept.txt\n');
  await expect(again.locator('.xterm-rows > div').filter({ hasText: /^\s*kept-across-starts\s*$/ })).toHaveCount(1, {
    timeout: 15_000,
  });

  // deleted: its container and its home volume are gone from the engine
  await api(page, 'vm-delete', { name: vmName });
  expect(engineObjects('ps', vmName)).toEqual([]);
  expect(engineObjects('volume ls', vmName)).toEqual([]);
});
