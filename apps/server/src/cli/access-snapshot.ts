import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { OTHER_ENDPOINTS } from '../other-endpoints';
import { ACCESS_SNAPSHOT_FILE, renderAccessSnapshot } from '../platform/http/access-snapshot';

/** npm run access:snapshot: writes docs/access.md (who may make each call and open each socket). */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const file = path.join(root, ACCESS_SNAPSHOT_FILE);
writeFileSync(file, renderAccessSnapshot(OTHER_ENDPOINTS));
console.log(`wrote ${path.relative(process.cwd(), file) || file}`);
