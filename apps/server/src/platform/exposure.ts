import type { Config } from './config';

/**
 * What a fresh install exposes, decided in one place (docs/operations.md, Before going live): the demo
 * accounts (a published password) and the dev mailbox (every reset link) are for a developer's own
 * machine. Outside production they are on while the server listens on loopback only; bound beyond it,
 * only an explicit SEED_DEMO=true / DEV_MAILBOX=true turns them on, and the start-up says so loudly
 * (startup-verdict.ts, on the top floor: it reads the demo accounts of seed/ and asks the lab engine).
 */
export const BEFORE_GOING_LIVE = 'docs/operations.md, "Before going live"';
export const SEVERAL_INSTANCES = 'docs/operations.md, "Several instances"';

export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

function devOnly(config: Config, explicit: boolean | undefined): boolean {
  if (config.NODE_ENV === 'production') return false;
  return explicit ?? isLoopbackHost(config.HOST);
}

export const demoAccountsOn = (config: Config): boolean => devOnly(config, config.SEED_DEMO);
export const devMailboxOn = (config: Config): boolean => devOnly(config, config.DEV_MAILBOX);
