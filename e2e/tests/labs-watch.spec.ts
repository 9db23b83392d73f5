import { spawnSync } from 'node:child_process';
import { expect, type Locator, test } from '@playwright/test';
import { axeViolations } from '../support/axe';
import { apiLogin, type Call, createTraining, freshLearner, signedInContext, tag } from '../support/conference';
import { linuxVm } from '../support/labs';
import { screenshot } from '../support/session';

/**
 * The instructor's over-the-shoulder view on the default container engine (a real TigerVNC desktop
 * in the lab's container): the provider ties a learner's lab to the training's schedule, opens the training's room
 * and sees the learner's running desktop as a view-only thumbnail, then full size.
 */
test.describe.configure({ mode: 'serial' });

let labName = '';
test.afterAll(() => {
  // a journey that failed half-way leaves its lab: remove its container and volume (this lab's only)
  if (/^tl-[0-9a-f]{10}$/.test(labName)) {
    for (const kind of [
      ['ps', '-a'],
      ['volume', 'ls'],
    ]) {
      const ids = spawnSync('docker', [...kind, '-q', '--filter', `label=org.trainlab.lab=${labName}`], {
        encoding: 'utf8',
      }).stdout.split('\n');
      for (const id of ids.filter(Boolean))
        spawnSync('docker', kind[0] === 'ps' ? ['rm', '-f', id] : ['volume', 'rm', '-f', id]);
    }
  }
});

/** The demo provider's lab account, registered here unless an earlier journey did (as labs.spec.ts does). */
async function ensureLabAccount(call: Call) {
  const exist = await call<{ exist: number; authorized: number }>('check-gc-ac-exist', {});
  if (!exist.exist) {
    await call('register-gc-account', {
      username: 'demolabs',
      email: 'labs@demo.test',
      first_name: 'Demo',
      last_name: 'Labs',
      password: 'Labs#2026pw',
      password2: 'Labs#2026pw',
    });
  }
  if (!exist.authorized) await call('authorize-gc-account', { username: 'demolabs', password: 'Labs#2026pw' });
}

/** How many distinct colours a desktop's canvas shows (a blank canvas has one). */
const colours = (desktop: Locator) =>
  desktop.locator('canvas').evaluate((canvas: HTMLCanvasElement) => {
    const ctx = canvas.getContext('2d');
    if (!ctx || !canvas.width || !canvas.height) return 0;
    const data = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
    const seen = new Set<number>();
    for (let i = 0; i < data.length && seen.size < 50; i += 4 * 97) {
      seen.add((data[i]! << 16) | (data[i + 1]! << 8) | data[i + 2]!);
    }
    return seen.size;
  });

test('the moderator sees an enrolled learner’s running lab desktop beside the room and opens it full size', async ({
  browser,
  request,
}) => {
  test.setTimeout(150_000);
  const { user: provider, call } = await apiLogin(request, 'provider@demo.test');
  await ensureLabAccount(call);
  const training = await createTraining(call, `Lab Watch ${tag()}`);
  const start = new Date(Date.now() + 60 * 60_000);
  await call('add-training-syllabus', {
    slug: training.slug,
    topic_name: 'Shell basics',
    start_time: start.toISOString(),
    end_time: new Date(start.getTime() + 60 * 60_000).toISOString(),
  });
  const learner = await freshLearner(request, call, training.slug, 'Meera');
  const made = await call<{ list: { vm_name: string }[] }>('gc-create-vm', linuxVm());
  labName = made.list[0]!.vm_name;
  await call('assign-vm-to-user', {
    first_name: 'Meera',
    last_name: 'Learner',
    email: learner.email,
    mobile_no: '9876543210',
    name: labName,
  });
  await call('vm-start-stop', { action: 'start', name: labName, is_user: 0 });

  const hostCtx = await signedInContext(browser, provider);
  const host = await hostCtx.newPage();

  // the training's syllabus page: tie the lab to the schedule with a lead time, see its next start
  await host.goto(`/training-syllabus/${training.slug}`);
  const schedule = host.getByRole('region', { name: 'Labs on this training’s schedule' });
  await expect(schedule.getByText('No lab is tied to this training.')).toBeVisible();
  await schedule.getByRole('textbox', { name: 'Lab' }).click();
  await host.getByRole('option', { name: new RegExp(labName) }).click();
  await schedule.getByRole('textbox', { name: 'Lead time (minutes)', exact: true }).fill('10');
  await schedule.getByRole('button', { name: 'Tie to schedule' }).click();
  const tied = schedule.getByTestId('lab-schedule-row');
  await expect(tied).toContainText(labName);
  await expect(tied).toContainText('10 min');
  await screenshot(host, 'labs-schedule');
  expect(await axeViolations(host)).toEqual([]);

  // the room: the moderator starts the training and sees the learner's desktop
  await host.goto(`/conference/${training.slug}`);
  await host.getByRole('dialog').getByRole('button', { name: 'Yes' }).click();
  const panel = host.getByRole('region', { name: 'Learners’ labs' });
  const thumb = panel.getByRole('img', { name: 'Meera Learner’s lab desktop (view only)' });
  await expect(thumb.locator('canvas')).toBeVisible({ timeout: 30_000 });
  await expect(panel.getByText('Live')).toBeVisible({ timeout: 20_000 });
  await expect.poll(() => colours(thumb), { timeout: 20_000 }).toBeGreaterThan(1);
  const box = await thumb.boundingBox();
  expect(box!.width).toBeLessThan(700);
  await screenshot(host, 'labs-watch-thumbnails');
  expect(await axeViolations(host)).toEqual([]);

  // full size, from the keyboard
  await panel.getByRole('button', { name: 'Open full size: Meera Learner’s desktop' }).focus();
  await host.keyboard.press('Enter');
  const dialog = host.getByRole('dialog', { name: /Meera Learner/ });
  const full = dialog.getByRole('img', { name: 'Meera Learner’s lab desktop, full size (view only)' });
  await expect(full.locator('canvas')).toBeVisible({ timeout: 30_000 });
  await expect.poll(() => colours(full), { timeout: 20_000 }).toBeGreaterThan(1);
  expect((await full.boundingBox())!.width).toBeGreaterThan(box!.width);
  await screenshot(host, 'labs-watch-full');
  expect(await axeViolations(host)).toEqual([]);
  await host.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  await hostCtx.close();
  await call('vm-delete', { name: labName });
});
