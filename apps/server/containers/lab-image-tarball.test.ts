import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveLabImageTarball } from '../src/adapters/labs/image-tarball';

/**
 * npm run lab-image:tarball: a built image as a tarball a cluster's registry takes. A one-file image
 * made here stands for the lab image (saving the 700 MB lab image took 45 s on a loaded machine).
 */
const dir = mkdtempSync(path.join(tmpdir(), 'tl-lab-tarball-'));
const docker = new Docker();
const IMAGE = 'trainlab-tarball-test:1';

beforeAll(async () => {
  const root = path.join(dir, 'root');
  execFileSync('mkdir', ['-p', root]);
  writeFileSync(path.join(root, 'hello.txt'), 'a lab image stand-in\n');
  const tar = spawn('tar', ['-C', root, '-c', '.'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [repo, tag] = IMAGE.split(':');
  const progress = await docker.importImage(tar.stdout as unknown as string, { repo, tag } as Record<string, unknown>);
  await new Promise<void>((resolve, reject) =>
    docker.modem.followProgress(progress, (err: Error | null) => (err ? reject(err) : resolve())),
  );
});
afterAll(async () => {
  await docker
    .getImage(IMAGE)
    .remove({ force: true })
    .catch(() => undefined);
  rmSync(dir, { recursive: true, force: true });
});

describe('lab image tarball', () => {
  it('writes the image in the docker-archive format, named by its tag', async () => {
    const file = path.join(dir, 'lab.tar');
    await saveLabImageTarball(docker, IMAGE, file);
    expect(statSync(file).size).toBeGreaterThan(1024);
    const manifest = JSON.parse(execFileSync('tar', ['-xOf', file, 'manifest.json']).toString()) as {
      RepoTags: string[];
    }[];
    expect(manifest[0]!.RepoTags).toEqual([IMAGE]);
    expect(existsSync(`${file}.partial`)).toBe(false);
  });

  it('a lab image not built is named, and nothing is written', async () => {
    const file = path.join(dir, 'none.tar');
    await expect(saveLabImageTarball(docker, 'trainlab-lab:never-built', file)).rejects.toThrow(
      'The lab image trainlab-lab:never-built is not built yet: npm run lab-image first.',
    );
    expect(existsSync(file)).toBe(false);
  });
});
