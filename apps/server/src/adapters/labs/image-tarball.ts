import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import type Docker from 'dockerode';
import { imageExists } from './container-image';

/**
 * Writes the lab image as a tarball (the `docker save` format, which `skopeo copy
 * docker-archive:…`, `crane push` and containerd's `ctr images import` read), for a cluster's
 * registry (LAB_PROVIDER=kubernetes). Written beside the target first and renamed, so a failed
 * save never leaves half a tarball under the name.
 */
export async function saveLabImageTarball(docker: Docker, image: string, file: string): Promise<void> {
  if (!(await imageExists(docker, image))) {
    throw new Error(`The lab image ${image} is not built yet: npm run lab-image first.`);
  }
  const partial = `${file}.partial`;
  try {
    await pipeline(await docker.getImage(image).get(), createWriteStream(partial, { mode: 0o644 }));
    await rename(partial, file);
  } catch (e) {
    await rm(partial, { force: true });
    throw e;
  }
}
