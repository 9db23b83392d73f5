import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);
const GB = 1024 ** 3;
const NAME = /^[a-z0-9][a-z0-9-]{0,120}$/;

/** Runs a shell script as root in the engine host's mount namespace and answers what it printed. */
export type HostScript = (script: string) => Promise<string>;

/** This machine's own shell, when the server is root beside its engine. */
export const localScript: HostScript = async (script) =>
  (await execFileAsync('/bin/sh', ['-c', script], { maxBuffer: 1 << 20 })).stdout;

/**
 * A lab's home with a hard size: a sparse ext4 image file of the lab's storage (GB), mounted through
 * a loop device on the engine's host and bound into the lab as its home. Writing past it fails in
 * the lab with "No space left on device"; the host gives it at most its size (the file grows only as
 * the lab writes). The file is kept across stop and start (unmounted while the lab is stopped, the
 * loop device freed with it), mounted again at each start (so a host or server restart needs
 * nothing else), and removed with the lab. Every step is a short script run as root on the engine's
 * host: by this server itself when it is root beside the engine, else through the engine
 * (lab-home.ts: a one-shot helper with SYS_ADMIN that enters the engine's mount namespace).
 */
export class LabDisks {
  /** one mount or unmount at a time per disk: two starts of one lab must not mount it twice */
  private readonly busy = new Map<string, Promise<unknown>>();

  constructor(
    /** the folder on the engine's host that holds the disks and their mount points */
    readonly dir: string,
    private readonly run: HostScript,
  ) {
    if (!path.isAbsolute(dir) || /['\\\n]/.test(dir)) throw new Error(`Invalid lab disk folder: ${dir}`);
  }

  /** null when this machine can run the scripts itself, else why not */
  static localProblem(engineLocal: boolean): string | null {
    if (!engineLocal) return 'the lab engine runs on another host (DOCKER_HOST)';
    if (process.getuid?.() !== 0) return 'the server does not run as root';
    for (const tool of ['/usr/sbin/mkfs.ext4', '/usr/bin/mountpoint', '/usr/bin/mount']) {
      if (!existsSync(tool)) return `${tool} is missing (apt-get install -y e2fsprogs mount util-linux)`;
    }
    if (!existsSync('/dev/loop-control')) return 'this host has no loop devices (/dev/loop-control)';
    return null;
  }

  /** What the engine's host needs, checked there: prints "ok" or what is missing. */
  static readonly PROBE = `export PATH=/usr/sbin:/usr/bin:/sbin:/bin
for t in truncate mkfs.ext4 mount umount mountpoint; do command -v $t >/dev/null || { echo "$t is missing on the lab host"; exit 0; }; done
[ -e /dev/loop-control ] || { echo "the lab host has no loop devices"; exit 0; }
echo ok`;

  image(name: string) {
    return path.join(this.dir, `${this.checked(name)}.ext4`);
  }
  mountPoint(name: string) {
    return path.join(this.dir, this.checked(name));
  }
  private checked(name: string) {
    if (!NAME.test(name)) throw new Error(`Invalid lab disk name: ${name}`);
    return name;
  }
  private vars(name: string) {
    return `export PATH=/usr/sbin:/usr/bin:/sbin:/bin
set -e
dir='${this.dir}'; img='${this.image(name)}'; mnt='${this.mountPoint(name)}'`;
  }

  private serial<T>(name: string, work: () => Promise<T>): Promise<T> {
    const before = this.busy.get(name) ?? Promise.resolve();
    const next = before.catch(() => undefined).then(work);
    this.busy.set(name, next);
    return next.finally(() => {
      if (this.busy.get(name) === next) this.busy.delete(name);
    });
  }

  /** Whether the disk is mounted now (the host's mount table, not a guess). */
  async mounted(name: string): Promise<boolean> {
    return (await this.run(`${this.vars(name)}\nmountpoint -q "$mnt" && echo yes || echo no`)).trim() === 'yes';
  }

  /**
   * The disk of `name`, made at `gb` when it does not exist yet (a fresh ext4 whose files are the
   * lab user's host account's, no blocks reserved for root, a new account's /etc/skel), and mounted.
   * The mount point is root's with mode 000 while nothing is mounted on it: were a lab ever started
   * on the bare folder, its user could not write a byte to the host's disk through it. The journal
   * is not zeroed (lazy_journal_init): the file is new and sparse, so it reads as zeros already, and
   * zeroing wrote 64 MB per lab of a 10 GB disk at its first start (3 GB for a class of 50 at the bell).
   */
  ensure(name: string, gb: number, owner: { uid: number; gid: number }): Promise<{ made: boolean }> {
    const bytes = Math.round(gb * GB);
    const who = `${Math.trunc(owner.uid)}:${Math.trunc(owner.gid)}`;
    return this.serial(name, async () => {
      const said = await this.run(`${this.vars(name)}
mkdir -p "$dir"; chmod 700 "$dir"
made=0
if [ ! -e "$img" ]; then
  rm -f "$img.new"
  truncate -s ${bytes} "$img.new"
  mkfs.ext4 -q -F -m 0 -E root_owner=${who},lazy_itable_init=1,lazy_journal_init=1 -L trainlab-home "$img.new"
  mv "$img.new" "$img"
  made=1
fi
if ! mountpoint -q "$mnt"; then
  mkdir -p "$mnt"; chown 0:0 "$mnt"; chmod 000 "$mnt"
  mount -t ext4 -o loop,nosuid,nodev,noatime "$img" "$mnt"
fi
if [ $made = 1 ]; then
  cp -a /etc/skel/. "$mnt"/
  chown -R --no-dereference ${who} "$mnt"
fi
echo "made=$made"`);
      return { made: said.includes('made=1') };
    });
  }

  /** Unmounts the disk (the lab is stopped); its file stays. */
  release(name: string): Promise<void> {
    return this.serial(name, async () => {
      await this.run(`${this.vars(name)}\nif mountpoint -q "$mnt"; then umount "$mnt"; fi`);
    });
  }

  /** Unmounts and removes the disk (the lab is deleted); never removes what is still mounted. */
  remove(name: string): Promise<void> {
    return this.serial(name, async () => {
      await this.run(`${this.vars(name)}
if mountpoint -q "$mnt"; then umount "$mnt"; fi
if [ -d "$mnt" ]; then rmdir "$mnt"; fi
rm -f "$img" "$img.new"`);
    });
  }

  /** Bytes of the host's disk the image holds now (its blocks, not its apparent size). */
  async used(name: string): Promise<number> {
    const said = await this.run(`${this.vars(name)}\n[ -e "$img" ] && stat -c '%b %B' "$img" || echo '0 0'`);
    const [blocks, size] = said.trim().split(/\s+/).map(Number);
    return (blocks ?? 0) * (size ?? 0);
  }
}
