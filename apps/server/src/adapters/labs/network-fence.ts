import { networkInterfaces } from 'node:os';

/**
 * Where a lab on the internet bridge (LAB_INTERNET=true) may not go, though its default route would
 * take it there: private and shared networks (the lab host's neighbours, a company network behind
 * it), link-local addresses (a cloud's metadata service at 169.254.169.254, which hands out the
 * host's credentials), and the special ranges. The lab's own bridge subnet stays reachable as a more
 * specific route (the engine's bridge keeps labs from each other), and its loopback is untouched.
 */
export const FENCED_RANGES = [
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.0.0.0/24',
  '192.168.0.0/16',
  '198.18.0.0/15',
  '224.0.0.0/4',
  '240.0.0.0/4',
];

/** Whether the lab engine runs on this machine (its socket), so that this machine's addresses are the lab host's. */
export const engineIsLocal = (dockerHost = process.env.DOCKER_HOST): boolean =>
  !dockerHost || dockerHost.startsWith('unix://') || dockerHost.startsWith('npipe://');

/** This machine's own IPv4 addresses but loopback (a lab reaches them through its gateway). */
export function hostAddresses(): string[] {
  return Object.values(networkInterfaces())
    .flat()
    .filter((a) => a && a.family === 'IPv4' && !a.internal)
    .map((a) => a!.address);
}

/**
 * The shell script that fences a lab's network namespace: one `prohibit` route per range, the
 * bridge's gateway (the lab host itself) and the lab host's other addresses. Run as root with
 * NET_ADMIN in the lab's namespace before the lab is handed over; the lab's user, without
 * capabilities, cannot remove a route. `replace` makes it safe to run again on a running lab.
 */
export function fenceScript(gateway: string | undefined, ownAddresses: readonly string[]): string {
  const targets = [...FENCED_RANGES, ...[gateway, ...ownAddresses].filter(Boolean).map((a) => `${a}/32`)];
  const ipv4 = /^\d{1,3}(\.\d{1,3}){3}\/\d{1,2}$/;
  return [...new Set(targets)]
    .filter((t) => ipv4.test(t))
    .map((t) => `ip route replace prohibit ${t}`)
    .join(' && ');
}
