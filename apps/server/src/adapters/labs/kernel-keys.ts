import { readFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * The kernel's key quota, and how many labs it holds. Every process the engine starts in a
 * container (the lab itself, and each exec: a terminal, its tmux server, a desktop, a trainer's view,
 * the start's wait) is given a session keyring by runc, and with user-namespace remapping every
 * lab's keyrings belong to one host account (the remapped root, uid 100000 with `default`), whose
 * quota is `kernel.keys.maxkeys` keys and `kernel.keys.maxbytes` bytes: 200 keys and 20,000 bytes
 * on a stock Debian kernel. Past it every new exec fails ("unable to create session key: disk quota
 * exceeded"): a class of 75 got no desktop for 25 labs while the labs themselves ran. Measured
 * (2026-12-04, /proc/key-users): one key of about 70 bytes per container and per live exec, freed
 * a few seconds after its processes end.
 */

/** the keys one running lab holds at most at once: itself, the tmux server and the terminal the
 * learner types in, the learner's desktop, a trainer's view of it, and one passing exec (a start's
 * wait, a hang-up) */
export const KEYS_PER_LAB = 6;
/** a session keyring's cost against maxbytes: its name `_ses.` and the container's 64-hex id */
export const BYTES_PER_KEY = 70;
/** what docs/operations.md asks a lab host to set (LXD's production values) */
export const KEYS_ADVICE = 'sysctl kernel.keys.maxkeys=2000 kernel.keys.maxbytes=2000000';
/** below this many labs by its key quota a production lab host is told at start-up (a class of 100) */
export const LABS_A_HOST_SHOULD_HOLD = 100;

export interface KeyQuota {
  maxkeys: number;
  maxbytes: number;
}

/** The quota this machine's kernel gives each account, or null where it cannot be read. */
export async function readKeyQuota(dir = '/proc/sys/kernel/keys'): Promise<KeyQuota | null> {
  try {
    const [keys, bytes] = await Promise.all(
      ['maxkeys', 'maxbytes'].map(async (f) => Number((await readFile(path.join(dir, f), 'utf8')).trim())),
    );
    return Number.isFinite(keys) && Number.isFinite(bytes) ? { maxkeys: keys!, maxbytes: bytes! } : null;
  } catch {
    return null;
  }
}

/** How many running labs the quota holds with their terminals and desktops open. */
export const labsByKeys = (q: KeyQuota) =>
  Math.floor(Math.min(q.maxkeys, Math.floor(q.maxbytes / BYTES_PER_KEY)) / KEYS_PER_LAB);
