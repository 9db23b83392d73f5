import 'dotenv/config';
import { buildLabImage, imageExists } from '../adapters/labs/container-image';
import { loadConfig } from '../platform/config';

/**
 * npm run lab-image [-- --force]: builds the container engine's lab image (LAB_IMAGE) from Debian's
 * packages, into the engine DOCKER_HOST names (this host's dockerd by default). Needs root and
 * debootstrap; takes a few minutes, said line by line.
 */
async function main() {
  const config = loadConfig();
  const { default: Docker } = await import('dockerode');
  const docker = new Docker();
  if (!process.argv.includes('--force') && (await imageExists(docker, config.LAB_IMAGE))) {
    console.log(`The lab image ${config.LAB_IMAGE} is already built (--force builds it again).`);
    return;
  }
  await buildLabImage(docker, config.LAB_IMAGE, (line) => console.log(line));
}

main().catch((e) => {
  console.error((e as Error).message);
  process.exit(1);
});
