import 'dotenv/config';
import { createInterface } from 'node:readline/promises';
import { closeDeps, createDeps } from '../bootstrap';
import { loadConfig } from '../platform/config';
import { ensureAdmin } from '../seed/demo';

/** npm run create-admin [-- email password]: creates the first admin account (production friendly). */
async function main() {
  let [email, password] = process.argv.slice(2);
  if (!email || !password) {
    const rl = createInterface({ input: process.stdin, output: process.stdout });
    email ||= await rl.question('Admin e-mail: ');
    password ||= await rl.question('Admin password (min 8 characters): ');
    rl.close();
  }
  if (!email?.includes('@') || !password || password.length < 8) {
    console.error('An e-mail and a password of at least 8 characters are required.');
    process.exit(1);
  }
  const deps = await createDeps(loadConfig());
  const created = await ensureAdmin(deps.db, email, password);
  console.log(created ? `Admin ${email} created.` : `An account with ${email} already exists.`);
  await closeDeps(deps);
}

void main();
