// Whether the container lab engine can run labs here: Docker answers and the lab image is built. When
// .ci/run builds the image beside the first test steps (LAB_IMAGE_BUILD_DONE), this waits for it.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

const IMAGE = process.env.LAB_IMAGE || 'trainlab-lab:bookworm-1';

function docker(args) {
  try {
    execFileSync('docker', args, { stdio: 'ignore', timeout: 20_000 });
    return true;
  } catch {
    return false;
  }
}

export async function labImageReady() {
  const done = process.env.LAB_IMAGE_BUILD_DONE;
  if (done) {
    const until = Date.now() + 20 * 60_000;
    if (!existsSync(done)) console.log('\nWaiting for the lab image build (npm run lab-image)…');
    while (!existsSync(done) && Date.now() < until) await new Promise((r) => setTimeout(r, 2000));
    if (existsSync(done) && readFileSync(done, 'utf8').trim() !== '0') {
      return { ok: false, reason: 'the lab image build failed (see /tmp/trainlab-lab-image.log)' };
    }
  }
  if (!docker(['info']))
    return { ok: false, reason: 'Docker does not answer (apt-get install -y docker.io; start dockerd)' };
  if (!docker(['image', 'inspect', IMAGE]))
    return { ok: false, reason: `the lab image ${IMAGE} is not built (npm run lab-image)` };
  return { ok: true };
}
