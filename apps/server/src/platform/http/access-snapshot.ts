import { API, type ApiAccess } from '@trainlab/contract';
import type { OtherEndpoint } from './other-endpoints';

/**
 * docs/access.md: who may make each call and who may open each WebSocket, sorted, so that a change of
 * access shows in review as a diff. Generated from the contract's call table and the other endpoints'
 * descriptions (handed in from apps/server/src/other-endpoints.ts: the platform imports no domain);
 * `npm run access:snapshot` writes it and a test fails when it differs.
 */
export const ACCESS_SNAPSHOT_FILE = 'docs/access.md';
export const ACCESS_SNAPSHOT_COMMAND = 'npm run access:snapshot';

const accessText = (access: ApiAccess): string =>
  access === 'public' ? 'public' : access === 'authenticated' ? 'authenticated' : [...access].sort().join(', ');

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function renderAccessSnapshot(otherEndpoints: readonly OtherEndpoint[]): string {
  const calls = Object.values(API)
    .map((c) => [`/api/${c.path}`, accessText(c.access)] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const sockets = otherEndpoints
    .flatMap((e) =>
      Object.values(e.methods)
        .filter((op) => op?.websocket)
        .map((op) => [e.path, op?.access.who ?? ''] as const),
    )
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return [
    '# Access: who may make each call and open each socket',
    '',
    `Generated from the contract's call table (packages/contract/src/calls) and the WebSocket entries of`,
    `apps/server/src/domains/*/other-endpoints.ts. Do not edit: run \`${ACCESS_SNAPSHOT_COMMAND}\`.`,
    '`public`: no token; `authenticated`: any signed-in account; otherwise the roles that may call.',
    '',
    `## Calls (${calls.length}, POST)`,
    '',
    '| call | access |',
    '| --- | --- |',
    ...calls.map(([path, access]) => `| ${cell(path)} | ${cell(access)} |`),
    '',
    `## WebSockets (${sockets.length})`,
    '',
    '| socket | who may open it |',
    '| --- | --- |',
    ...sockets.map(([path, who]) => `| ${cell(path)} | ${cell(who)} |`),
    '',
  ].join('\n');
}
