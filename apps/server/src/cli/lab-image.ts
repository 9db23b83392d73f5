import 'dotenv/config';
import { buildLabImage, imageExists } from '../adapters/labs/container-image';
import { loadConfig } from '../platform/config';

/**
 * npm run lab-image: builds the container engine's lab image (LAB_IMAGE) from Debian's packages, into
 * the engine DOCKER_HOST names (this host's dockerd by default), when it is missing.
 * npm run lab-image:rebuild (or LAB_IMAGE_REBUILD=1 npm run lab-image) builds it again over the old
 * one: a flag such as --force would never get here, npm takes it for itself. Needs root and
 * debootstrap; takes a few minutes, said line by line. The server's first start runs the same build.
 */
async function main() {
  const config = loadConfig();
  const { default: Docker } = await import('dockerode');
  const docker = new Docker();
  const rebuild = process.argv.includes('--rebuild') || process.env.LAB_IMAGE_REBUILD === '1';
  if (!rebuild && (await imageExists(docker, config.LAB_IMAGE))) {
    console.log(`The lab image ${config.LAB_IMAGE} is already built (npm run lab-image:rebuild builds it again).`);
    return;
  }
  await buildLabImage(docker, config.LAB_IMAGE, (line) => console.log(line));
}

main().catch((e) => {
  console.error((e as Error).message);
  process.exit(1);
});
