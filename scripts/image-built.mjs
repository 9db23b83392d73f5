// Whether .ci/run's background build of the production image (scripts/image.mjs) is over and made the
// image: it writes its exit code to IMAGE_BUILD_DONE at its end, its output to IMAGE_BUILD_LOG.
import { existsSync, readFileSync } from 'node:fs';

/** Waits for the build's exit code (at most `minutes`); on a failure, the end of its log says why. */
export async function imageBuilt(done, minutes = 40) {
  const until = Date.now() + minutes * 60_000;
  if (!existsSync(done)) console.log('\nWaiting for the production image to be built (scripts/image.mjs)…');
  while (!existsSync(done) && Date.now() < until) await new Promise((r) => setTimeout(r, 2000));
  const log = process.env.IMAGE_BUILD_LOG ?? '/tmp/trainlab-image.log';
  const tail = () =>
    existsSync(log) ? `; its log ends:\n${readFileSync(log, 'utf8').trim().split('\n').slice(-15).join('\n')}` : '';
  if (!existsSync(done)) return { ok: false, reason: `the image was not built within ${minutes} min${tail()}` };
  const code = readFileSync(done, 'utf8').trim();
  if (code !== '0') return { ok: false, reason: `the image build failed (exit ${code})${tail()}` };
  return { ok: true };
}
