// Whether the container lab engine can run labs here: Docker answers and the lab image is built. When
// .ci/run's first start builds the image beside the first test steps (LAB_IMAGE_BUILD_DONE), this
// waits for it.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

const IMAGE = process.env.LAB_IMAGE || 'trainlab-lab:bookworm-3';

function docker(args) {
  try {
    execFileSync('docker', args, { stdio: 'ignore', timeout: 20_000 });
    return true;
  } catch {
    return false;
  }
}

/**
 * Waits for CI's first start (scripts/first-start.mjs) to be over when one runs (LAB_IMAGE_BUILD_DONE):
 * it writes the file at its end, whatever happened, within its own limit (FIRST_START_MINUTES, 20).
 */
export async function firstStartOver() {
  const done = process.env.LAB_IMAGE_BUILD_DONE;
  if (!done) return;
  const until = Date.now() + 25 * 60_000;
  if (!existsSync(done))
    console.log('\nWaiting for the first start (scripts/first-start.mjs: it builds the lab image)…');
  while (!existsSync(done) && Date.now() < until) await new Promise((r) => setTimeout(r, 2000));
}

export async function labImageReady() {
  const done = process.env.LAB_IMAGE_BUILD_DONE;
  if (done) {
    await firstStartOver();
    if (existsSync(done) && readFileSync(done, 'utf8').trim() !== '0') {
      return {
        ok: false,
        reason: 'the first start did not build the lab image or run a lab (see /tmp/trainlab-lab-image.log)',
      };
    }
  }
  if (!docker(['info']))
    return { ok: false, reason: 'Docker does not answer (apt-get install -y docker.io; start dockerd)' };
  if (!docker(['image', 'inspect', IMAGE]))
    return { ok: false, reason: `the lab image ${IMAGE} is not built (npm run lab-image)` };
  return { ok: true };
}
