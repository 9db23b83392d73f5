import { readFileSync } from 'node:fs';
import path from 'node:path';
import { API } from '@trainlab/contract';
import { describe, expect, it } from 'vitest';
import { OTHER_ENDPOINTS } from '../src/other-endpoints';
import {
  ACCESS_SNAPSHOT_COMMAND,
  ACCESS_SNAPSHOT_FILE,
  renderAccessSnapshot,
} from '../src/platform/http/access-snapshot';

// docs/access.md is the committed snapshot of who may make each call and open each socket: a change
// of access shows in review as a diff of that file.
describe('the access snapshot', () => {
  const file = path.resolve(__dirname, '../../..', ACCESS_SNAPSHOT_FILE);

  it(`${ACCESS_SNAPSHOT_FILE} matches the call table and the sockets`, () => {
    const committed = readFileSync(file, 'utf8');
    const current = renderAccessSnapshot(OTHER_ENDPOINTS);
    if (committed !== current) {
      expect.fail(
        `${ACCESS_SNAPSHOT_FILE} differs from the access table: run \`${ACCESS_SNAPSHOT_COMMAND}\` and commit the file (review the diff: it is a change of who may do what).`,
      );
    }
  });

  it('lists every call once and every WebSocket route', () => {
    const text = renderAccessSnapshot(OTHER_ENDPOINTS);
    for (const c of Object.values(API)) expect(text).toContain(`| /api/${c.path} |`);
    for (const ws of ['/ws/conference', '/ws/labs/terminal/{name}', '/ws/labs/vnc/{name}', '/ws/labs/rdp/{name}']) {
      expect(text).toContain(`| ${ws} |`);
    }
  });
});
