import { MSG, VM_STATUS } from '@trainlab/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { labAccounts, users, vms, vmUsages } from '../src/db/schema';
import { createTestApp, type TestApp } from './helpers';
import { accountBody, LAB_PASSWORD, labAccount, labControls, linuxVm, makeVm } from './labs-fixtures';
import { postMultipart } from './master-support';
import { expectGuarded, orgWithOwner } from './org-fixtures';
import { book, person } from './trainings-fixtures';

let t: TestApp;
let lab: ReturnType<typeof labControls>;
let provider: string;
let providerId: number;
let other: string;
let org: string;
let orgId: number;
let subadmin: string;
const MANAGERS = ['provider', 'organization', 'org_subadmin'] as const;
const LAB_USERS = [...MANAGERS, 'provider_user', 'organization_user', 'user'] as const;

beforeAll(async () => {
  t = await createTestApp({ LOGIN_RATE_LIMIT: '1000', LAB_PROVIDER: 'memory' });
  lab = labControls(t);
  const p = await t.loginAs({ role: 'provider' });
  provider = p.token;
  providerId = p.user.id;
  other = (await t.loginAs({ role: 'provider' })).token;
  const o = await orgWithOwner(t);
  org = o.token;
  orgId = o.organization.id;
  subadmin = (await t.loginAs({ role: 'org_subadmin', organization_id: orgId })).token;
  await labAccount(t, provider);
  await labAccount(t, other);
});
afterAll(() => t.close());

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const HEADER = ['firstname', 'lastname', 'email', 'mobileno'];
const upload = (rows: (string | number | null)[][], token: string) =>
  postMultipart(
    t,
    'vm-assign-to-user',
    [{ name: 'file', filename: 'vm-users.xlsx', content: book(rows), contentType: XLSX }],
    token,
  );

describe('access', () => {
  it('401 and 403 for every role that may not call the manager calls', async () => {
    await expectGuarded(
      t,
      [
        'register-gc-account',
        'authorize-gc-account',
        'check-gc-ac-exist',
        'gc-create-vm',
        'vm-list',
        'vm-details',
        'vm-delete',
        'get-vm-count',
        'assign-vm-to-user',
        'vm-assign-to-user',
      ],
      [...MANAGERS],
      { name: 'tl-none' },
    );
  });
  it('401 and 403 for start/stop and connection (managers and learners only)', async () => {
    await expectGuarded(t, ['vm-start-stop', 'vm-connection'], [...LAB_USERS], { name: 'tl-none', action: 'start' });
  });
});

describe('lab account: /register-gc-account, /authorize-gc-account, /check-gc-ac-exist', () => {
  it('registers once per tenant (authorized by the registration itself), signs in with the password, and reports both', async () => {
    const o = await orgWithOwner(t);
    expect((await t.post('check-gc-ac-exist', {}, o.token)).body).toEqual({ exist: 0, authorized: 0, username: null });
    const reg = await t.post('register-gc-account', accountBody(), o.token);
    expect(reg).toEqual({ status: 200, body: { message: MSG.registerSuccess } });
    // the manager who registered it chose its password just now: no second sign-in before a first VM
    expect((await t.post('check-gc-ac-exist', {}, o.token)).body).toEqual({
      exist: 1,
      authorized: 1,
      username: 'labadmin',
    });
    // a second registration of the same tenant (its sub-admin too) is refused
    const sub = (await t.loginAs({ role: 'org_subadmin', organization_id: o.organization.id })).token;
    const again = await t.post('register-gc-account', accountBody(), sub);
    expect(again.status).toBe(422);
    expect(again.body.username).toEqual([MSG.labAccountExists]);
    const wrong = await t.post('authorize-gc-account', { username: 'labadmin', password: 'Wrong#Pass1' }, sub);
    expect(wrong.status).toBe(422);
    expect(wrong.body.username).toEqual([MSG.invalidCredentials]);
    const ok = await t.post('authorize-gc-account', { username: 'LabAdmin', password: LAB_PASSWORD }, sub);
    expect(ok).toEqual({ status: 200, body: { message: MSG.labAccountAuthorized } });
    expect((await t.post('check-gc-ac-exist', {}, o.token)).body.authorized).toBe(1);
    // the password is stored hashed, never returned
    expect(JSON.stringify(ok.body)).not.toContain(LAB_PASSWORD);
  });

  it('422 per field of the registration', async () => {
    const o = await orgWithOwner(t);
    for (const field of ['username', 'email', 'first_name', 'last_name', 'password', 'password2']) {
      const res = await t.post('register-gc-account', accountBody({ [field]: '' }), o.token);
      expect(res.status, field).toBe(422);
      expect(Object.keys(res.body), field).toContain(field);
    }
    const mismatch = await t.post('register-gc-account', accountBody({ password2: 'Other#Pass1' }), o.token);
    expect(Object.keys(mismatch.body)).toEqual(['password2']);
    const bad = await t.post('register-gc-account', accountBody({ email: 'not-mail', username: 'a b' }), o.token);
    expect(Object.keys(bad.body).sort()).toEqual(['email', 'username']);
    const short = await t.post(
      'register-gc-account',
      accountBody({ password: 'Ab#1234', password2: 'Ab#1234' }),
      o.token,
    );
    expect(Object.keys(short.body)).toEqual(['password']);
  });

  it('422 per field of the authorization and when there is no account', async () => {
    const o = await orgWithOwner(t);
    for (const field of ['username', 'password']) {
      const res = await t.post('authorize-gc-account', { username: 'x', password: 'y', [field]: '' }, o.token);
      expect(res.status).toBe(422);
      expect(Object.keys(res.body)).toEqual([field]);
    }
    const none = await t.post('authorize-gc-account', { username: 'x', password: 'y' }, o.token);
    expect(none.status).toBe(422);
  });
});

describe('/gc-create-vm', () => {
  it('creates count labs; each password is shown once and stored encrypted', async () => {
    const res = await t.post('gc-create-vm', linuxVm({ count: 2 }), provider);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe(MSG.vmCreated);
    expect(res.body.list).toHaveLength(2);
    for (const v of res.body.list) {
      expect(v.vm_name).toMatch(/^tl-[0-9a-f]{10}$/);
      expect(v.password.length).toBeGreaterThanOrEqual(16);
      const [row] = await t.deps.db.select().from(vms).where(eq(vms.vm_name, v.vm_name));
      expect(row!.status).toBe(VM_STATUS.create);
      expect(row!.protocol).toBe('ssh');
      expect(row!.owner_user_id).toBe(providerId);
      expect(row!.password_enc).not.toContain(v.password);
      expect(t.deps.cipher.decrypt(String(row?.password_enc))).toBe(v.password);
      expect(lab.engine.machines.get(v.vm_name)).toBe('stopped');
      // never again: not in the list, not in the details
      const details = await t.post('vm-details', { name: v.vm_name }, provider);
      expect(JSON.stringify(details.body)).not.toContain(v.password);
    }
    const list = await t.post('vm-list', { per_page: 100 }, provider);
    expect(JSON.stringify(list.body)).not.toContain(res.body.list[0].password);
  });

  it('without an authorized lab account: 422 other_error (the page sends the user to registration)', async () => {
    const o = await orgWithOwner(t);
    const res = await t.post('gc-create-vm', linuxVm(), o.token);
    expect(res.status).toBe(422);
    expect(res.body.other_error).toEqual([MSG.labAccountMissing]);
    // an account registered but never signed in (older data) is still refused
    await t.post('register-gc-account', accountBody(), o.token);
    await t.deps.db
      .update(labAccounts)
      .set({ authorized_at: null })
      .where(eq(labAccounts.organization_id, o.organization.id));
    expect((await t.post('gc-create-vm', linuxVm(), o.token)).status).toBe(422);
    // registering signs it in: the first VM needs no second step
    const other = await orgWithOwner(t);
    await t.post('register-gc-account', accountBody(), other.token);
    expect((await t.post('gc-create-vm', linuxVm(), other.token)).status).toBe(200);
  });

  const expect422 = async (body: Record<string, unknown>, field: string) => {
    const res = await t.post('gc-create-vm', body, provider);
    expect(res.status, `${JSON.stringify(body)} → ${field}`).toBe(422);
    expect(Object.keys(res.body), JSON.stringify(body)).toEqual([field]);
    return res.body[field] as string[];
  };
  const expectOk = async (body: Record<string, unknown>) => {
    const res = await t.post('gc-create-vm', body, provider);
    expect(res.status, `${JSON.stringify(body)}: ${JSON.stringify(res.body)}`).toBe(200);
  };

  it('minimum RAM: 2 GB for Linux, 4 GB for Windows; only the RAM options', async () => {
    await expectOk(linuxVm({ ram: 2 }));
    expect(await expect422(linuxVm({ ram: 1 }), 'ram')).toEqual(['The ram must be one of: 2, 4, 8, 16, 32.']);
    await expect422(linuxVm({ ram: 3 }), 'ram');
    await expect422(linuxVm({ ram: 64 }), 'ram');
    await expectOk(linuxVm({ image: 'windows', protocol: 'rdp', storage: 50, ram: 4 }));
    expect(await expect422(linuxVm({ image: 'windows', protocol: 'rdp', storage: 50, ram: 2 }), 'ram')).toEqual([
      'The ram must be at least 4 GB for Windows.',
    ]);
    await expectOk(linuxVm({ ram: 32 }));
  });

  it('minimum storage: 10 GB for Linux, 50 GB for Windows (at the limit and one below)', async () => {
    await expectOk(linuxVm({ storage: 10 }));
    expect(await expect422(linuxVm({ storage: 9 }), 'storage')).toEqual([
      'The storage must be at least 10 GB for Linux.',
    ]);
    await expectOk(linuxVm({ image: 'windows', protocol: 'rdp', ram: 4, storage: 50 }));
    expect(await expect422(linuxVm({ image: 'windows', protocol: 'rdp', ram: 4, storage: 49 }), 'storage')).toEqual([
      'The storage must be at least 50 GB for Windows.',
    ]);
    await expectOk(linuxVm({ storage: 2000 }));
    await expect422(linuxVm({ storage: 2001 }), 'storage');
  });

  it('protocol fixed by OS: rdp for Windows, ssh otherwise', async () => {
    expect(await expect422(linuxVm({ protocol: 'rdp' }), 'protocol')).toEqual(['The protocol must be ssh for Linux.']);
    await expect422(linuxVm({ image: 'windows', protocol: 'ssh', ram: 4, storage: 50 }), 'protocol');
    await expect422(linuxVm({ protocol: 'vnc' }), 'protocol');
  });

  it('count 1 to 10, zone and image from the lookups, each field required', async () => {
    await expect422(linuxVm({ count: 0 }), 'count');
    await expect422(linuxVm({ count: 11 }), 'count');
    const ten = await t.post('gc-create-vm', linuxVm({ count: 10 }), other);
    expect(ten.body.list).toHaveLength(10);
    await expect422(linuxVm({ zone: 'mars-1a' }), 'zone');
    await expect422(linuxVm({ image: 'debian' }), 'image');
    for (const field of ['image', 'protocol', 'zone', 'count', 'storage', 'ram']) {
      const res = await t.post('gc-create-vm', linuxVm({ [field]: '' }), provider);
      expect(res.status, field).toBe(422);
      expect(Object.keys(res.body), field).toContain(field);
    }
  });
});

describe('/vm-list, /vm-details, /get-vm-count, /vm-start-stop, /vm-delete', () => {
  it('lists the tenant’s labs only, paged and searchable; deleted ones only on asking for status 3', async () => {
    const o = await orgWithOwner(t);
    await labAccount(t, o.token);
    const a = await makeVm(t, o.token, { name: 'Alpha lab' });
    const b = await makeVm(t, o.token, { name: 'Beta lab' });
    const sub = (await t.loginAs({ role: 'org_subadmin', organization_id: o.organization.id })).token;
    const page = await t.post('vm-list', { per_page: 1, sort: 'name' }, sub);
    expect(page.body).toMatchObject({ total: 2, page: 1, per_page: 1 });
    expect(page.body.list[0]).toMatchObject({ vm_name: a.vm_name, name: 'Alpha lab', status: 0, ram: 2, storage: 10 });
    expect(
      (await t.post('vm-list', { search: 'beta' }, o.token)).body.list.map((v: { vm_name: string }) => v.vm_name),
    ).toEqual([b.vm_name]);
    expect((await t.post('vm-list', {}, provider)).body.list.map((v: { vm_name: string }) => v.vm_name)).not.toContain(
      a.vm_name,
    );
    expect((await t.post('vm-list', { sort: 'nope' }, o.token)).status).toBe(422);
    expect((await t.post('vm-delete', { name: a.vm_name }, o.token)).body).toEqual({ message: MSG.vmDeleted });
    expect((await t.post('vm-list', {}, o.token)).body.total).toBe(1);
    expect((await t.post('vm-list', { status: 3 }, o.token)).body.list[0].vm_name).toBe(a.vm_name);
    expect(lab.engine.machines.has(a.vm_name)).toBe(false);
    // a deleted lab cannot be deleted again nor started
    expect((await t.post('vm-delete', { name: a.vm_name }, o.token)).status).toBe(404);
    const start = await t.post('vm-start-stop', { action: 'start', name: a.vm_name }, o.token);
    expect(start.status).toBe(422);
    expect(start.body.other_error).toEqual([MSG.labDeleted]);
    // a lab just created has not run: it is not counted as stopped
    expect((await t.post('get-vm-count', {}, sub)).body).toEqual({
      count: 1,
      running: 0,
      stopped: 0,
      not_started: 1,
      assigned: 0,
      unassigned: 1,
    });
    await t.post('vm-start-stop', { action: 'start', name: b.vm_name }, o.token);
    expect((await t.post('get-vm-count', {}, sub)).body).toMatchObject({ running: 1, stopped: 0, not_started: 0 });
    await t.post('vm-start-stop', { action: 'stop', name: b.vm_name }, o.token);
    expect((await t.post('get-vm-count', {}, sub)).body).toMatchObject({ running: 0, stopped: 1, not_started: 0 });
  });

  it('404 across tenants for details, delete, start/stop, connection', async () => {
    const v = await makeVm(t, provider);
    for (const path of ['vm-details', 'vm-delete', 'vm-connection']) {
      expect((await t.post(path, { name: v.vm_name }, other)).status, path).toBe(404);
      expect((await t.post(path, { name: v.vm_name }, org)).status, path).toBe(404);
      expect((await t.post(path, { name: 'tl-missing' }, provider)).status, path).toBe(404);
    }
    expect((await t.post('vm-start-stop', { action: 'start', name: v.vm_name }, other)).status).toBe(404);
    const learner = (await t.loginAs({ role: 'provider_user' })).token;
    expect((await t.post('vm-start-stop', { action: 'start', name: v.vm_name, is_user: 1 }, learner)).status).toBe(404);
    expect(lab.engine.machines.get(v.vm_name)).toBe('stopped');
  });

  it('422 per field of start/stop and the name calls', async () => {
    for (const [body, field] of [
      [{ name: 'tl-x' }, 'action'],
      [{ name: 'tl-x', action: 'reboot' }, 'action'],
      [{ action: 'start' }, 'name'],
    ] as const) {
      const res = await t.post('vm-start-stop', body, provider);
      expect(res.status).toBe(422);
      expect(Object.keys(res.body)).toEqual([field]);
    }
    for (const path of ['vm-details', 'vm-delete', 'vm-connection']) {
      const res = await t.post(path, {}, provider);
      expect(res.status, path).toBe(422);
      expect(Object.keys(res.body)).toEqual(['name']);
    }
  });

  it('start then stop: status 1 then 2, one usage row each run with server times', async () => {
    const v = await makeVm(t, provider);
    lab.at('2026-11-20T10:00:00.000Z');
    const start = await t.post('vm-start-stop', { action: 'start', name: v.vm_name, is_user: 0 }, provider);
    expect(start).toEqual({ status: 200, body: { message: MSG.vmUpdated, status: VM_STATUS.start } });
    expect(lab.engine.machines.get(v.vm_name)).toBe('running');
    // a second start changes nothing (no second meter)
    await t.post('vm-start-stop', { action: 'start', name: v.vm_name }, provider);
    lab.at('2026-11-20T10:30:00.000Z');
    const stop = await t.post('vm-start-stop', { action: 'stop', name: v.vm_name }, provider);
    expect(stop.body.status).toBe(VM_STATUS.stop);
    const details = await t.post('vm-details', { name: v.vm_name }, provider);
    expect(details.body.usage).toHaveLength(1);
    expect(details.body.usage[0]).toMatchObject({
      vm_start: '2026-11-20T10:00:00.000Z',
      vm_stop: '2026-11-20T10:30:00.000Z',
      used_min: 30,
      status: 3,
      paid: 0,
    });
    expect(details.body.data).toMatchObject({ vm_name: v.vm_name, status: 2, username: v.username });
  });
});

describe('assignment: /assign-vm-to-user, /vm-assign-to-user, the learner’s dashboard and connection', () => {
  it('assigns the named lab to a new learner: account, usage row Assign, e-mail, dashboard card', async () => {
    const v = await makeVm(t, provider);
    const p = person(1);
    const res = await t.post('assign-vm-to-user', { ...p, name: v.vm_name }, provider);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ message: MSG.recordAdded, vm_name: v.vm_name });
    const [u] = await t.deps.db.select().from(users).where(eq(users.id, res.body.user_id));
    expect(u).toMatchObject({ email: p.email, roles: ['provider_user'], provider_id: providerId });
    const usage = await t.deps.db.select().from(vmUsages).where(eq(vmUsages.user_id, u!.id));
    expect(usage.map((r) => r.status)).toEqual([1]);
    const mail = (await t.outbox()).find((m) => m.to === p.email);
    expect(mail?.subject).toContain('A virtual machine is assigned to you');
    expect(mail?.text).toContain(`/vm/${v.vm_name}`);
    // already assigned: 422 on name
    const again = await t.post('assign-vm-to-user', { ...person(2), name: v.vm_name }, provider);
    expect(again.status).toBe(422);
    expect(again.body.name).toEqual([MSG.labAlreadyAssigned]);
    // another tenant's lab by name: 422 on name (as if it did not exist)
    const theirs = await makeVm(t, other);
    expect(
      (await t.post('assign-vm-to-user', { ...person(3), name: theirs.vm_name }, provider)).body.name,
    ).toBeTruthy();
  });

  it('the assigned learner sees the card, starts and stops the lab, and may open its connection; nobody else', async () => {
    const v = await makeVm(t, provider);
    const learner = await t.loginAs({ role: 'provider_user', provider_id: providerId });
    lab.at('2026-11-21T09:00:00.000Z');
    expect(
      (await t.post('assign-vm-to-user', { ...person(4), email: learner.user.email, name: v.vm_name }, provider))
        .status,
    ).toBe(200);
    const dash = await t.post('lpu/dashboard-data', {}, learner.token);
    expect(dash.body.d_vm_data).toEqual({
      vm_name: v.vm_name,
      name: v.name,
      created_at: '2026-11-21T09:00:00.000Z',
      status: 0,
    });
    const start = await t.post('vm-start-stop', { action: 'start', name: v.vm_name, is_user: 1 }, learner.token);
    expect(start.body.status).toBe(1);
    const conn = await t.post('vm-connection', { name: v.vm_name }, learner.token);
    expect(conn.body).toMatchObject({
      vm_name: v.vm_name,
      width: 1296,
      height: 765,
      protocol: 'ssh',
      rdp: false,
      problem: null,
    });
    const stranger = (await t.loginAs({ role: 'provider_user', provider_id: providerId })).token;
    expect((await t.post('vm-connection', { name: v.vm_name }, stranger)).status).toBe(404);
    expect((await t.post('lpu/dashboard-data', {}, stranger)).body.d_vm_data).toBeNull();
    expect(
      (await t.post('vm-start-stop', { action: 'stop', name: v.vm_name, is_user: 1 }, learner.token)).body.status,
    ).toBe(2);
  });

  it('the dashboard lists every lab assigned: the newest first, before an older lab that has no assignment date', async () => {
    const learner = await t.loginAs({ role: 'provider_user', provider_id: providerId });
    const old = await makeVm(t, provider);
    await t.deps.db
      .update(vms)
      .set({ assigned_user_id: learner.user.id, assigned_at: null })
      .where(eq(vms.vm_name, old.vm_name));
    const fresh = await makeVm(t, provider);
    lab.at('2026-11-22T09:00:00.000Z');
    expect(
      (await t.post('assign-vm-to-user', { ...person(5), email: learner.user.email, name: fresh.vm_name }, provider))
        .status,
    ).toBe(200);
    const dash = await t.post('lpu/dashboard-data', {}, learner.token);
    expect(dash.body.d_vm_data.vm_name).toBe(fresh.vm_name);
    expect(dash.body.vms.map((v: { vm_name: string }) => v.vm_name)).toEqual([fresh.vm_name, old.vm_name]);
  });

  it('one free lab each: 422 with other_error when none is free; 422 per field; not a learner', async () => {
    const o = await orgWithOwner(t);
    await labAccount(t, o.token);
    const none = await t.post('assign-vm-to-user', person(5), o.token);
    expect(none.status).toBe(422);
    expect(none.body.other_error).toEqual([MSG.labNoFreeVm]);
    const v = await makeVm(t, o.token);
    for (const field of ['first_name', 'last_name', 'email', 'mobile_no']) {
      const res = await t.post('assign-vm-to-user', person(6, { [field]: '' }), o.token);
      expect(res.status, field).toBe(422);
      expect(Object.keys(res.body), field).toEqual([field]);
    }
    const trainer = await t.createUser({ role: 'trainer' });
    const res = await t.post('assign-vm-to-user', person(7, { email: trainer.email }), o.token);
    expect(res.body.email).toEqual([MSG.labNotAssignable]);
    const ok = await t.post('assign-vm-to-user', person(8), o.token);
    expect(ok.body.vm_name).toBe(v.vm_name);
    const [u] = await t.deps.db.select().from(users).where(eq(users.id, ok.body.user_id));
    expect(u).toMatchObject({ roles: ['organization_user'], organization_id: o.organization.id });
  });

  it('only the tenant’s own learners: another tenant’s learner and any other account get one and the same answer', async () => {
    const o = await orgWithOwner(t);
    await labAccount(t, o.token);
    const v = await makeVm(t, o.token);
    const otherOrg = await orgWithOwner(t);
    const strangers = [
      // another organization's learner, a learner of a provider, a self-registered user
      await t.createUser({ role: 'organization_user', organization_id: otherOrg.organization.id }),
      await t.createUser({ role: 'provider_user', provider_id: providerId }),
      await t.createUser({ role: 'user' }),
      // accounts that are no learners at all
      await t.createUser({ role: 'trainer' }),
      await t.createUser({ role: 'provider' }),
      await t.createUser({ role: 'org_subadmin', organization_id: o.organization.id }),
    ];
    const answers = [];
    for (const s of strangers) {
      const res = await t.post('assign-vm-to-user', person(9, { email: s.email, name: v.vm_name }), o.token);
      answers.push({ status: res.status, body: res.body });
    }
    const expected = { status: 422, body: { email: [MSG.labNotAssignable] } };
    expect(answers).toEqual(strangers.map(() => expected));
    const [lab] = await t.deps.db.select().from(vms).where(eq(vms.vm_name, v.vm_name));
    expect(lab!.assigned_user_id).toBeNull();
    // the provider's side: the organization's learner is refused alike, the provider's own learner is not
    const v2 = await makeVm(t, provider);
    const orgLearner = await t.createUser({ role: 'organization_user', organization_id: o.organization.id });
    const refused = await t.post(
      'assign-vm-to-user',
      person(9, { email: orgLearner.email, name: v2.vm_name }),
      provider,
    );
    expect({ status: refused.status, body: refused.body }).toEqual(expected);
    const own = await t.createUser({ role: 'provider_user', provider_id: providerId });
    const ok = await t.post('assign-vm-to-user', person(9, { email: own.email, name: v2.vm_name }), provider);
    expect(ok.status).toBe(200);
    expect(ok.body.user_id).toBe(own.id);
    // the organization's own learner works, from its sub-admin too
    const mine = await t.createUser({ role: 'organization_user', organization_id: o.organization.id });
    const sub = (await t.loginAs({ role: 'org_subadmin', organization_id: o.organization.id })).token;
    const byOrg = await t.post('assign-vm-to-user', person(9, { email: mine.email, name: v.vm_name }), sub);
    expect(byOrg.status).toBe(200);
    expect(byOrg.body.user_id).toBe(mine.id);
    // Excel rows the same
    await makeVm(t, o.token);
    const bad = await upload([HEADER, ['A', 'B', strangers[0]!.email, '9876543210']], o.token);
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([
      expect.objectContaining({ row: 2, attribute: 'email', errors: [MSG.labNotAssignable] }),
    ]);
  });

  it('Excel: every row gets a free lab, all or none; row errors as Row {row} {attribute} {errors}', async () => {
    const o = await orgWithOwner(t);
    await labAccount(t, o.token);
    await makeVm(t, o.token, { count: 2 });
    const a = person('x1');
    const b = person('x2');
    const bad = await upload(
      [HEADER, [a.first_name, a.last_name, a.email, a.mobile_no], ['', 'L', 'not-mail', '98']],
      o.token,
    );
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: { row: number; attribute: string }) => `${e.row} ${e.attribute}`)).toEqual(
      expect.arrayContaining(['3 firstname', '3 email']),
    );
    const three = await upload(
      [HEADER, ...[a, b, person('x3')].map((p) => [p.first_name, p.last_name, p.email, p.mobile_no])],
      o.token,
    );
    expect(three.status).toBe(422);
    expect(three.body.file[0]).toContain('2 free, the file has 3 rows');
    const dup = await upload(
      [HEADER, [a.first_name, a.last_name, a.email, a.mobile_no], [a.first_name, a.last_name, a.email, a.mobile_no]],
      o.token,
    );
    expect(dup.body.errors).toEqual([
      { row: 3, attribute: 'email', errors: ['The email appears more than once in the file.'] },
    ]);
    const ok = await upload([HEADER, ...[a, b].map((p) => [p.first_name, p.last_name, p.email, p.mobile_no])], o.token);
    expect(ok).toEqual({ status: 200, body: { message: MSG.recordAdded, count: 2 } });
    expect((await t.post('get-vm-count', {}, o.token)).body).toMatchObject({ assigned: 2, unassigned: 0 });
    const mails = (await t.outbox()).filter((m) => m.to === a.email || m.to === b.email);
    expect(mails).toHaveLength(2);
    const missing = await postMultipart(t, 'vm-assign-to-user', [], o.token);
    expect(missing.status).toBe(422);
  });
});

describe('org tenants', () => {
  it('the organization and its sub-admins share labs', async () => {
    await labAccount(t, org);
    const v = await makeVm(t, subadmin);
    expect((await t.post('vm-details', { name: v.vm_name }, org)).status).toBe(200);
    const [row] = await t.deps.db.select().from(vms).where(eq(vms.vm_name, v.vm_name));
    expect(row!.organization_id).toBe(orgId);
  });
});

describe('/lab-settings, /update-lab-settings', () => {
  it('reads and sets the tenant’s idle stop and caps; limits at the edge; 422 without an account', async () => {
    expect((await t.post('lab-settings', {}, provider)).body).toEqual({
      idle_stop_seconds: 1800,
      cap_hours_month: null,
      cap_paise_month: null,
    });
    const set = await t.post(
      'update-lab-settings',
      { idle_stop_seconds: 604800, cap_hours_month: 10, cap_paise_month: '' },
      provider,
    );
    expect(set.body).toEqual({ idle_stop_seconds: 604800, cap_hours_month: 10, cap_paise_month: null });
    for (const [field, value] of [
      ['idle_stop_seconds', 604801],
      ['idle_stop_seconds', 0],
      ['cap_hours_month', -1],
      ['cap_paise_month', 'x'],
    ] as const) {
      const res = await t.post('update-lab-settings', { [field]: value }, provider);
      expect(res.status, `${field}=${value}`).toBe(422);
      expect(Object.keys(res.body)).toEqual([field]);
    }
    await t.post('update-lab-settings', { idle_stop_seconds: 1800 }, provider);
    const o = await orgWithOwner(t);
    expect((await t.post('lab-settings', {}, o.token)).body).toEqual({ other_error: [MSG.labAccountMissing] });
    await expectGuarded(t, ['lab-settings', 'update-lab-settings'], [...MANAGERS]);
  });
});
