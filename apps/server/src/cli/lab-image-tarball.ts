import 'dotenv/config';
import { saveLabImageTarball } from '../adapters/labs/image-tarball';
import { loadConfig } from '../platform/config';

/**
 * LAB_IMAGE_TARBALL=lab.tar npm run lab-image:tarball: the lab image (LAB_IMAGE, built by npm run
 * lab-image) as a tarball to push to a cluster's registry. An environment variable, as
 * LAB_IMAGE_REBUILD: npm keeps flags for itself.
 */
async function main() {
  const file = process.env.LAB_IMAGE_TARBALL;
  if (!file) throw new Error('Say where: LAB_IMAGE_TARBALL=/path/trainlab-lab.tar npm run lab-image:tarball');
  const config = loadConfig();
  const { default: DockerClient } = await import('dockerode');
  const started = Date.now();
  await saveLabImageTarball(new DockerClient(), config.LAB_IMAGE, file);
  console.log(
    `${config.LAB_IMAGE} written to ${file} (${Math.round((Date.now() - started) / 1000)} s). Push it to the cluster's registry, e.g. skopeo copy docker-archive:${file} docker://registry.example.com/trainlab-lab:bookworm-3, and set LAB_K8S_IMAGE to that name.`,
  );
}

main().catch((e) => {
  console.error((e as Error).message);
  process.exit(1);
});
