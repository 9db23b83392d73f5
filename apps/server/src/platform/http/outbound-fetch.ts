import dns, { type LookupAddress, type LookupOptions } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP } from 'node:net';
import type { Config } from '../config';

/**
 * The one way the server fetches an address a user gave it (an identity provider's metadata URL,
 * an OpenID issuer's discovery and token endpoints): without it, an organization could make our
 * server read its own loopback services, the private network behind it or the cloud metadata
 * service (169.254.169.254), and see the answer in an error or in its settings.
 *
 * - http and https only;
 * - the addresses a host name resolves to are checked when the connection is made (the agent's
 *   `lookup`), so a name that resolves to a public address at one moment and to a private one the
 *   next (DNS rebinding) cannot slip through; a literal address is checked before connecting;
 * - loopback, private (RFC 1918, fc00::/7, 100.64/10), link-local (169.254/16, fe80::/10),
 *   unspecified, multicast, documentation and reserved ranges are refused unless
 *   OUTBOUND_ALLOW_PRIVATE names the host or a range holding the address;
 * - redirects are followed here, each one checked again, at most OUTBOUND_MAX_REDIRECTS;
 * - an answer larger than OUTBOUND_MAX_BYTES or slower than OUTBOUND_TIMEOUT_MS is refused.
 */

export const OUTBOUND_MAX_BYTES = 1024 * 1024;
export const OUTBOUND_TIMEOUT_MS = 10_000;
export const OUTBOUND_MAX_REDIRECTS = 5;

export type OutboundReason = 'scheme' | 'address' | 'redirects' | 'too_large' | 'timeout' | 'unreachable';

/** What the person who entered the address reads (a 422 field message). */
export const OUTBOUND_MSG: Record<OutboundReason, string> = {
  scheme: 'The address must start with http:// or https://.',
  address: 'The address leads to a local, private or reserved network address, which this server does not contact.',
  redirects: `The address redirects more than ${OUTBOUND_MAX_REDIRECTS} times.`,
  too_large: `The answer at the address is larger than ${OUTBOUND_MAX_BYTES / (1024 * 1024)} MB.`,
  timeout: `The address did not answer within ${OUTBOUND_TIMEOUT_MS / 1000} seconds.`,
  unreachable: 'The address could not be reached.',
};

export class OutboundRefused extends Error {
  constructor(
    readonly reason: OutboundReason,
    readonly detail: string,
  ) {
    super(OUTBOUND_MSG[reason]);
  }
}

/** The guard's refusal behind an error a library wrapped around it (openid-client does), if any. */
export function outboundRefusal(e: unknown): OutboundRefused | null {
  for (let cur = e, depth = 0; cur && depth < 5; cur = (cur as { cause?: unknown }).cause, depth++) {
    if (cur instanceof OutboundRefused) return cur;
  }
  return null;
}

/** Ranges never contacted unless allowed (IPv4-mapped IPv6 addresses are checked as IPv4). */
const RESERVED = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  RESERVED.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  // unspecified, loopback and the old IPv4-compatible form
  ['::', 96],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  RESERVED.addSubnet(net, prefix, 'ipv6');
}

/** The IPv4 address inside an IPv4-mapped IPv6 address (::ffff:a.b.c.d or ::ffff:xxxx:xxxx). */
function mappedIpv4(address: string): string | null {
  const m = /^::ffff:(?:0:)?(.+)$/i.exec(address);
  if (!m) return null;
  const rest = m[1]!;
  if (isIP(rest) === 4) return rest;
  const hex = /^([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(rest);
  if (!hex) return null;
  const n = (Number.parseInt(hex[1]!, 16) << 16) | Number.parseInt(hex[2]!, 16);
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

export interface OutboundPolicy {
  /** host names that may resolve to any address */
  hosts: Set<string>;
  /** addresses and ranges that may be contacted although reserved */
  ranges: BlockList;
}

/** OUTBOUND_ALLOW_PRIVATE: host names, addresses and CIDR ranges, comma-separated. */
export function outboundPolicy(allow: readonly string[]): OutboundPolicy {
  const policy: OutboundPolicy = { hosts: new Set(), ranges: new BlockList() };
  for (const entry of allow) {
    const [address, prefix] = entry.split('/');
    const family = isIP(address ?? '');
    if (family) {
      const type = family === 4 ? 'ipv4' : 'ipv6';
      if (prefix === undefined) policy.ranges.addAddress(address!, type);
      else policy.ranges.addSubnet(address!, Number(prefix), type);
    } else {
      policy.hosts.add(entry.toLowerCase());
    }
  }
  return policy;
}

/** Whether the server may connect to this address. */
export function addressAllowed(address: string, policy: OutboundPolicy): boolean {
  const v4 = isIP(address) === 6 ? mappedIpv4(address) : null;
  const [addr, type] = v4
    ? [v4, 'ipv4' as const]
    : [address, isIP(address) === 4 ? ('ipv4' as const) : ('ipv6' as const)];
  if (policy.ranges.check(addr, type)) return true;
  return !RESERVED.check(addr, type);
}

const policies = new WeakMap<object, OutboundPolicy>();
const policyOf = (config: Pick<Config, 'OUTBOUND_ALLOW_PRIVATE'>) => {
  let p = policies.get(config);
  if (!p) {
    p = outboundPolicy(config.OUTBOUND_ALLOW_PRIVATE);
    policies.set(config, p);
  }
  return p;
};

/** The agent's resolver: only the allowed addresses of a name are offered to the connection. */
function guardedLookup(policy: OutboundPolicy) {
  return (
    hostname: string,
    options: LookupOptions,
    callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '');
      const trusted = policy.hosts.has(hostname.toLowerCase());
      const ok = trusted ? addresses : addresses.filter((a) => addressAllowed(a.address, policy));
      if (ok.length === 0) {
        const list = addresses.map((a) => a.address).join(', ');
        return callback(new OutboundRefused('address', `${hostname} resolves to ${list}`), '');
      }
      if (options.all) return callback(null, ok);
      return callback(null, ok[0]!.address, ok[0]!.family);
    });
  };
}

interface Answer {
  status: number;
  headers: Headers;
  body: Buffer;
}

export interface OutboundInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string | URLSearchParams | null;
  /** 'manual' answers a redirect as it is (openid-client asks so); 'follow' (default) follows it, checked again */
  redirect?: 'follow' | 'manual';
  signal?: AbortSignal;
}

function once(url: URL, init: OutboundInit, policy: OutboundPolicy, signal: AbortSignal): Promise<Answer> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) && !policy.hosts.has(host.toLowerCase()) && !addressAllowed(host, policy)) {
    return Promise.reject(new OutboundRefused('address', `${host} is reserved`));
  }
  const body = init.body === undefined || init.body === null ? undefined : String(init.body);
  const lib = url.protocol === 'https:' ? https : http;
  return new Promise<Answer>((resolve, reject) => {
    const req = lib.request(
      url,
      {
        method: init.method ?? 'GET',
        headers: { ...init.headers, ...(body !== undefined ? { 'content-length': Buffer.byteLength(body) } : {}) },
        // a fresh agent per request: a pooled connection to an earlier address is never reused
        agent: false,
        lookup: guardedLookup(policy) as never,
        signal,
      },
      (res) => {
        const declared = Number(res.headers['content-length'] ?? 0);
        if (declared > OUTBOUND_MAX_BYTES) {
          res.destroy();
          return reject(new OutboundRefused('too_large', `${url.href} declares ${declared} bytes`));
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > OUTBOUND_MAX_BYTES) {
            res.destroy();
            reject(new OutboundRefused('too_large', `${url.href} sent more than ${OUTBOUND_MAX_BYTES} bytes`));
            return;
          }
          chunks.push(chunk);
        });
        res.on('close', () => {
          // a connection cut (or timed out) before the end: the promise is settled only once
          if (!res.complete) reject(new Error('the connection closed before the answer ended'));
        });
        res.on('end', () => {
          const headers = new Headers();
          for (const [k, v] of Object.entries(res.headers)) {
            for (const one of Array.isArray(v) ? v : v === undefined ? [] : [v]) headers.append(k, one);
          }
          resolve({ status: res.statusCode ?? 502, headers, body: Buffer.concat(chunks) });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** Fetches `input` under the guard; answers a Fetch API Response (openid-client takes it as is). */
export async function outboundFetch(
  config: Pick<Config, 'OUTBOUND_ALLOW_PRIVATE'>,
  input: string | URL,
  init: OutboundInit = {},
): Promise<Response> {
  const policy = policyOf(config);
  const timeout = AbortSignal.timeout(OUTBOUND_TIMEOUT_MS);
  const signal = init.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
  let url = new URL(input);
  let current = init;
  for (let hop = 0; ; hop++) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new OutboundRefused('scheme', `${url.protocol} is not fetched`);
    }
    let answer: Answer;
    try {
      answer = await once(url, current, policy, signal);
    } catch (e) {
      if (e instanceof OutboundRefused) throw e;
      if (timeout.aborted) throw new OutboundRefused('timeout', `${url.href} took too long`);
      if (init.signal?.aborted) throw e;
      throw new OutboundRefused('unreachable', `${url.href}: ${(e as Error).message}`);
    }
    const location = answer.headers.get('location');
    if (!REDIRECTS.has(answer.status) || !location || init.redirect === 'manual') {
      const empty = [101, 204, 205, 304].includes(answer.status);
      return new Response(empty ? null : new Uint8Array(answer.body), {
        status: answer.status,
        headers: answer.headers,
      });
    }
    if (hop >= OUTBOUND_MAX_REDIRECTS) throw new OutboundRefused('redirects', `${url.href} keeps redirecting`);
    const next = new URL(location, url);
    // credentials go to the origin they were meant for only
    if (next.origin !== url.origin && current.headers) {
      current = {
        ...current,
        headers: Object.fromEntries(
          Object.entries(current.headers).filter(([k]) => k.toLowerCase() !== 'authorization'),
        ),
      };
    }
    url = next;
    // a 303, or a 301/302 after a POST, continues as a GET without the body (as browsers do)
    const method = (current.method ?? 'GET').toUpperCase();
    if (answer.status === 303 || ((answer.status === 301 || answer.status === 302) && method === 'POST')) {
      current = { ...current, method: 'GET', body: undefined };
    }
  }
}

/** The guard in openid-client's shape (its `customFetch`): every request it makes goes through here. */
export const guardedFetch =
  (config: Pick<Config, 'OUTBOUND_ALLOW_PRIVATE'>) =>
  (
    url: string,
    options: {
      method: string;
      headers: Record<string, string>;
      body?: unknown;
      signal?: AbortSignal;
      redirect?: 'manual';
    },
  ) =>
    outboundFetch(config, url, {
      method: options.method,
      headers: options.headers,
      body: options.body as string | URLSearchParams | undefined,
      redirect: options.redirect,
      signal: options.signal,
    });
