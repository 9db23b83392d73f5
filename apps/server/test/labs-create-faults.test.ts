import { VM_STATUS } from '@trainlab/contract';
import { eq, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LabEngineError, MemoryLabs } from '../src/adapters/labs';
import { vms } from '../src/db/schema';
import { reconcileOrphans } from '../src/domains/labs/orphans';
import { failWrites } from './fault-trigger';
import { createTestApp, type TestApp } from './helpers';
import { labAccount, linuxVm } from './labs-fixtures';

/**
 * A lab create is three steps: the record, the engine's machine, the record's engine reference. The
 * database failing at each step (a failing statement injected with a trigger, on PGlite and
 * PostgreSQL alike), or the engine failing, must leave no half-made lab, and the caller's retry
 * exactly one: a machine the engine made for a create that never finished is undone at once, or by
 * reconcileOrphans when even that failed.
 */
let t: TestApp;
let provider: string;

/** An engine whose delete can be made to fail once (the undo of a create failing too). */
class FlakyLabs extends MemoryLabs {
  failDelete = false;
  failCreate = false;
  override async create(spec: Parameters<MemoryLabs['create']>[0]) {
    if (this.failCreate) throw new LabEngineError('Quota exceeded in this zone.');
    return super.create(spec);
  }
  override async delete(ref: string) {
    if (this.failDelete) {
      this.failDelete = false;
      throw new LabEngineError('The engine did not answer.');
    }
    return super.delete(ref);
  }
}
let engine: FlakyLabs;

beforeAll(async () => {
  t = await createTestApp({ LOGIN_RATE_LIMIT: '1000', LAB_PROVIDER: 'memory' });
  engine = new FlakyLabs();
  t.deps.labs = engine;
  provider = (await t.loginAs({ role: 'provider' })).token;
  await labAccount(t, provider);
});
afterAll(async () => {
  await t.close();
});

/** Makes `when` statements on vms fail as a terminated connection does (SQLSTATE 57P01) until undone. */
const failVms = (when: 'insert' | 'reference') =>
  failWrites(
    t.deps,
    'vms',
    when === 'insert'
      ? `tg_op = 'INSERT'`
      : `tg_op = 'UPDATE' and new.engine_ref is not null and old.engine_ref is null`,
  );

const liveRows = () => t.deps.db.select({ vm_name: vms.vm_name }).from(vms).where(ne(vms.status, VM_STATUS.deleted));
const create = () => t.post('gc-create-vm', linuxVm(), provider);

/** After each case: exactly the live records have machines, and each machine has a live record. */
async function agree() {
  const live = (await liveRows()).map((r) => r.vm_name).sort();
  expect([...engine.machines.keys()].sort()).toEqual(live);
}

describe('a lab create that the database or the engine interrupts', () => {
  it('the record cannot be written: 503 with Retry-After, no machine, no record; the retry makes one', async () => {
    const before = (await liveRows()).length;
    const undo = await failVms('insert');
    try {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/gc-create-vm',
        headers: { authorization: `Bearer ${provider}` },
        payload: linuxVm(),
      });
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBeDefined();
      expect(res.body).not.toMatch(/insert into|vms/i);
    } finally {
      await undo();
    }
    expect((await liveRows()).length).toBe(before);
    await agree();
    expect((await create()).status).toBe(200);
    expect((await liveRows()).length).toBe(before + 1);
    await agree();
  });

  it('the engine refuses: 422 with its message, the record kept as deleted, no machine', async () => {
    const before = (await liveRows()).length;
    engine.failCreate = true;
    try {
      expect(await create()).toEqual({ status: 422, body: { other_error: ['Quota exceeded in this zone.'] } });
    } finally {
      engine.failCreate = false;
    }
    expect((await liveRows()).length).toBe(before);
    await agree();
  });

  it('the reference cannot be written: 503, the machine undone at once and the record deleted; the retry makes one', async () => {
    const before = (await liveRows()).length;
    const undo = await failVms('reference');
    let res: Awaited<ReturnType<typeof create>>;
    try {
      res = await create();
    } finally {
      await undo();
    }
    expect(res.status).toBe(503);
    expect((await liveRows()).length).toBe(before);
    await agree();
    expect((await create()).status).toBe(200);
    expect((await liveRows()).length).toBe(before + 1);
    await agree();
  });

  it('the reference cannot be written and the undo fails too: the reconcile removes the machine and closes the record', async () => {
    const before = (await liveRows()).length;
    const undo = await failVms('reference');
    engine.failDelete = true;
    let res: Awaited<ReturnType<typeof create>>;
    try {
      res = await create();
    } finally {
      await undo();
    }
    expect(res.status).toBe(503);
    // half-done now: a machine whose record never got its reference
    expect(engine.machines.size).toBe(before + 1);
    // its record was closed (deleted) by the create's failure path: the machine is nobody's
    expect(await reconcileOrphans(t.deps)).toEqual({ removed: 1, abandoned: 0 });
    expect((await liveRows()).length).toBe(before);
    await agree();
  });

  it('a record without its reference past the grace period is closed, and a machine no record owns is removed', async () => {
    const made = await create();
    const name = made.body.list[0].vm_name as string;
    await t.deps.db.update(vms).set({ engine_ref: null }).where(eq(vms.vm_name, name));
    await engine.create({
      vmName: 'tl-nobody00001',
      username: 'tllab_nobody00001',
      password: 'x',
      image: 'ubuntu',
      ram: 2,
      storage: 10,
      zone: 'asia-south1-a',
    });
    // within the grace period the create may still be in flight: its machine stays, the stray goes
    expect(await reconcileOrphans(t.deps)).toEqual({ removed: 1, abandoned: 0 });
    expect(engine.machines.has(name)).toBe(true);
    expect(await reconcileOrphans(t.deps, 0)).toEqual({ removed: 1, abandoned: 1 });
    const [row] = await t.deps.db.select().from(vms).where(eq(vms.vm_name, name));
    expect(row!.status).toBe(VM_STATUS.deleted);
    await agree();
  });
});
