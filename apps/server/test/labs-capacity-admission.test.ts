import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type Docker from 'dockerode';
import { describe, expect, it } from 'vitest';
import { HostCapacity, REQUEST_LABEL } from '../src/adapters/labs/container-capacity';
import { KEYS_PER_LAB, labsByKeys, readKeyQuota } from '../src/adapters/labs/kernel-keys';
import { loadConfig } from '../src/platform/config';

/**
 * The container engine's admission of starts (container-capacity.ts) against an engine that answers
 * `docker info` and the list of running containers as Docker does: decisions are taken one at a time
 * (two starts never both take the last room), the starts themselves run side by side (a class's
 * labs at the bell), and an admitted lab holds its request while its container is still starting.
 */

const GB = 1024 ** 3;
const MB = 1024 ** 2;
const LABELS = { lab: 'org.trainlab.lab', install: 'org.trainlab.install', ns: 'test' };

/** A host of `memoryGb` whose running containers are `running` (refs), each with a 256 MB request. */
function engine(memoryGb: number, running: Set<string>) {
  const docker = {
    info: async () => ({ MemTotal: memoryGb * GB, NCPU: 2 }),
    listContainers: async () =>
      [...running].map((ref) => ({
        Labels: { [LABELS.lab]: ref, [LABELS.install]: LABELS.ns, [REQUEST_LABEL]: String(256 * MB) },
      })),
  };
  return async () => docker as unknown as Docker;
}

/** A start that waits for `open` to be called, then shows its container as running. */
function gatedStart(ref: string, running: Set<string>, started: string[]) {
  let open!: () => void;
  const gate = new Promise<void>((r) => {
    open = r;
  });
  const start = async () => {
    started.push(ref);
    await gate;
    running.add(ref);
  };
  return { start, open };
}

describe('the admission of lab starts', () => {
  // 4 GB less a 3.5 GB reserve: room for two requests of 256 MB, not three
  const config = loadConfig({ NODE_ENV: 'test', LAB_MEMORY_REQUEST_MB: '256', LAB_MEMORY_RESERVE_MB: '3584' });

  it('starts admitted together run side by side; the one past the room is refused while they are still starting', async () => {
    const running = new Set<string>();
    const host = new HostCapacity(config, engine(4, running), LABELS);
    const started: string[] = [];
    const a = gatedStart('a', running, started);
    const b = gatedStart('b', running, started);
    const c = gatedStart('c', running, started);
    const admitted = [host.admit('a', 2, a.start), host.admit('b', 2, b.start)];
    const refused = host.admit('c', 2, c.start);
    await expect(refused).rejects.toThrow(/The lab host is full: its 2 running labs hold 0.5 of the 0.5 GB/);
    // neither of the first two has finished, and both are starting: the engine is not made to wait
    expect(started).toEqual(['a', 'b']);
    a.open();
    b.open();
    await Promise.all(admitted);
    expect([...running]).toEqual(['a', 'b']);
  });

  it('a start that fails gives its room back', async () => {
    const running = new Set<string>();
    const host = new HostCapacity(config, engine(4, running), LABELS);
    await host.admit('a', 2, async () => {
      running.add('a');
    });
    await expect(
      host.admit('b', 2, async () => {
        throw new Error('the engine refused');
      }),
    ).rejects.toThrow('the engine refused');
    const capacity = await host.capacity();
    expect(capacity.running).toBe(1);
    expect(capacity.requested).toBe(256 * MB);
    await host.admit('b', 2, async () => {
      running.add('b');
    });
    expect((await host.capacity()).running).toBe(2);
  });

  it('a lab counted while starting is not counted twice once its container runs', async () => {
    const running = new Set<string>();
    const host = new HostCapacity(config, engine(4, running), LABELS);
    let during = -1;
    await host.admit('a', 2, async () => {
      running.add('a');
      // the container runs and the start has not returned yet
      during = (await host.capacity()).requested;
    });
    expect(during).toBe(256 * MB);
  });

  // the kernel's key quota of the lab accounts (kernel-keys.ts): exactly its labs run, one more is refused
  const quota = (maxkeys: number, maxbytes: number) => async () => ({ maxkeys, maxbytes });
  const start = (running: Set<string>, ref: string) => async () => {
    running.add(ref);
  };

  it('the key quota bounds the running labs: at its count a start is admitted, one past it refused with the setting', async () => {
    const roomy = loadConfig({ NODE_ENV: 'test', LAB_MEMORY_REQUEST_MB: '256', LAB_MEMORY_RESERVE_MB: '0' });
    const running = new Set<string>();
    // 2 labs' keys: 2 × KEYS_PER_LAB keys, bytes to spare; memory for 256 labs
    const host = new HostCapacity(roomy, engine(64, running), LABELS, quota(2 * KEYS_PER_LAB, 1_000_000));
    await host.admit('a', 2, start(running, 'a'));
    await host.admit('b', 2, start(running, 'b'));
    await expect(host.admit('c', 2, start(running, 'c'))).rejects.toThrow(
      /The lab host is full: its kernel's key quota \(kernel\.keys\.maxkeys 12, maxbytes 1000000\) holds 2 running labs with their terminals and desktops, and 2 run\. Stop a lab, or raise the quota on the lab host \(sysctl kernel\.keys\.maxkeys=2000 kernel\.keys\.maxbytes=2000000\)\./,
    );
    expect([...running]).toEqual(['a', 'b']);
    expect(await host.capacity()).toMatchObject({ running: 2, keyLimit: 2 });
    // a lab already running is started again (its own start): it does not count against itself
    await host.admit('b', 2, start(running, 'b'));
  });

  it('the quota in bytes bounds it too; a quota that cannot be read bounds nothing', async () => {
    const roomy = loadConfig({ NODE_ENV: 'test', LAB_MEMORY_REQUEST_MB: '256', LAB_MEMORY_RESERVE_MB: '0' });
    const running = new Set<string>();
    // 70 bytes a key: 840 bytes are 12 keys, 2 labs, however many keys are allowed
    const host = new HostCapacity(roomy, engine(64, running), LABELS, quota(2000, 840));
    await host.admit('a', 2, start(running, 'a'));
    await host.admit('b', 2, start(running, 'b'));
    await expect(host.admit('c', 2, start(running, 'c'))).rejects.toThrow(/maxbytes 840\) holds 2 running labs/);
    const unknown = new HostCapacity(roomy, engine(64, running), LABELS, async () => null);
    await unknown.admit('c', 2, start(running, 'c'));
    expect((await unknown.capacity()).keyLimit).toBeNull();
  });

  it('reads the quota from the kernel’s files; a stock kernel’s 200 keys and 20,000 bytes hold 33 labs', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tl-keys-'));
    writeFileSync(path.join(dir, 'maxkeys'), '200\n');
    writeFileSync(path.join(dir, 'maxbytes'), '20000\n');
    const q = await readKeyQuota(dir);
    expect(q).toEqual({ maxkeys: 200, maxbytes: 20000 });
    expect(labsByKeys(q!)).toBe(33);
    expect(labsByKeys({ maxkeys: 2000, maxbytes: 2_000_000 })).toBe(333);
    expect(await readKeyQuota(path.join(dir, 'absent'))).toBeNull();
  });
});
