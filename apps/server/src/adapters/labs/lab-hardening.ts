import type Docker from 'dockerode';
import profile from './lab-seccomp.json';

/**
 * The system calls a lab may make (lab-seccomp.json), passed to the engine at every create: an
 * allowlist of what a shell, a desktop (Xvnc, Openbox, xterm), Python and the usual tools use. Every
 * other call fails with EPERM, among them io_uring_setup/enter/register (Docker 20.10's default
 * profile lets them through; the kernel's io_uring has been a steady source of privilege escalations),
 * new namespaces (unshare, setns, clone with CLONE_NEW*; clone3 answers ENOSYS so the C library falls
 * back to clone, whose flags can be checked), ptrace and process_vm_*, bpf, perf_event_open,
 * userfaultfd, the kernel keyring, mounts, module loading, kexec and the clock. Only the host's own
 * 64-bit architecture: a 32-bit system call kills the process. docs/operations.md lists it.
 */
export const LAB_SECCOMP_PROFILE = JSON.stringify(profile);

/** What every lab container (and the fence's helper) runs under, besides dropped capabilities. */
export const LAB_SECURITY_OPT = ['no-new-privileges:true', `seccomp=${LAB_SECCOMP_PROFILE}`];

/** How the engine runs its containers, as it says itself (`docker info`). */
export interface EngineIsolation {
  /** lab processes run as accounts of their own on the host: dockerd's userns-remap, or a rootless engine */
  userns: boolean;
  /** the host uid and gid a container's uid 0 is (userns-remap's subordinate range; 0 without) */
  uidBase: number;
  gidBase: number;
}

export async function engineIsolation(docker: Docker): Promise<EngineIsolation> {
  const info = (await docker.info()) as { SecurityOptions?: string[]; DockerRootDir?: string };
  const options = info.SecurityOptions ?? [];
  const userns = options.some((o) => /(^|,)name=(userns|rootless)(,|$)/.test(o));
  // with userns-remap dockerd keeps its data under <root>/<uid>.<gid> of the remapped range
  const range = /\/(\d+)\.(\d+)\/?$/.exec(info.DockerRootDir ?? '');
  return {
    userns,
    uidBase: userns && range ? Number(range[1]) : 0,
    gidBase: userns && range ? Number(range[2]) : 0,
  };
}

export const NO_USERNS =
  'The lab engine runs labs as accounts of this host (dockerd without user-namespace remapping). Set {"userns-remap": "default"} in /etc/docker/daemon.json and restart dockerd; production refuses labs without it.';

export const diskUncapped = (why: string) =>
  `Lab homes cannot be capped on this host (${why}). The lab host needs loop devices and e2fsprogs, and the engine must run its disk helper (SYS_ADMIN, in the host's namespaces); or set LAB_DISK_UNCAPPED=true to run labs without a disk cap (refused in production).`;
