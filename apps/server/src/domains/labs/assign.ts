import {
  type assignVmRequest,
  IMPORT_TEMPLATES,
  MSG,
  trainingUserImportRow,
  VM_STATUS,
  VM_USAGE_STATUS,
} from '@trainlab/contract';
import { and, asc, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { users, vms, vmUsages } from '../../db/schema';
import type { Db } from '../../platform/db/client';
import type { Deps } from '../../platform/deps';
import { ValidationError } from '../../platform/errors';
import { readUpload, streamImport } from '../../platform/excel';
import type { AuthContext } from '../../platform/http/auth-context';
import { isTenantLearner, managerTenant, type Tenant } from '../../platform/tenancy';
import { issuePasswordLink } from '../accounts-mail';
import { newLearner } from '../trainings/training-users';
import { type VmRow, vmTenantWhere } from './access';

/**
 * Assignment (spec 02 §5): a lab goes to one learner of the tenant, found by e-mail or created as
 * a learner of the tenant; the assignment is a usage row (status Assign) and the learner is e-mailed. Excel
 * rows take the tenant's free labs, oldest first; all rows or none.
 */
type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
interface Person {
  first_name: string;
  last_name: string;
  email: string;
  mobile_no: string;
}
interface Assigned {
  vm: VmRow;
  user: { id: number; email: string; first_name: string };
  created: boolean;
}

/** Free labs of the tenant (not deleted, not assigned), locked, oldest first. */
async function freeLabs(tx: Tx, tenant: Tenant, limit: number): Promise<VmRow[]> {
  return tx
    .select()
    .from(vms)
    .where(and(vmTenantWhere(tenant), ne(vms.status, VM_STATUS.deleted), isNull(vms.assigned_user_id)))
    .orderBy(asc(vms.id))
    .limit(limit)
    .for('update');
}

/**
 * Whether a lab of `tenant` may go to this existing account: only to the tenant's own learners (a
 * provider's provider_user accounts, an organization's organization_user accounts). Every other
 * account (another tenant's learner, a manager, a trainer, a self-registered user) gets the same
 * refusal, so the answer does not tell what the e-mail belongs to.
 */
const assignable = (tenant: Tenant, account: typeof users.$inferSelect): boolean => isTenantLearner(tenant, account);

async function accountsByEmail(tx: Tx, emails: string[]) {
  if (emails.length === 0) return new Map<string, typeof users.$inferSelect>();
  const rows = await tx
    .select()
    .from(users)
    .where(inArray(sql`lower(${users.email})`, emails));
  return new Map(rows.map((u) => [u.email.toLowerCase(), u]));
}

async function assignAll(deps: Deps, tx: Tx, tenant: Tenant, pairs: { person: Person; vm: VmRow }[]) {
  const at = deps.clock();
  const existing = await accountsByEmail(
    tx,
    pairs.map((p) => p.person.email.toLowerCase()),
  );
  const out: Assigned[] = [];
  for (const { person, vm } of pairs) {
    let user = existing.get(person.email.toLowerCase());
    let created = false;
    if (!user) {
      [user] = await tx.insert(users).values(newLearner(tenant, person)).returning();
      created = true;
    }
    await tx.update(vms).set({ assigned_user_id: user!.id, assigned_at: at }).where(eq(vms.id, vm.id));
    await tx.insert(vmUsages).values({ vm_id: vm.id, user_id: user!.id, status: VM_USAGE_STATUS.assign });
    out.push({ vm, user: { id: user!.id, email: user!.email, first_name: user!.first_name }, created });
  }
  return out;
}

async function notify(deps: Deps, done: Assigned[]) {
  for (const a of done) {
    const subject = `A virtual machine is assigned to you: ${a.vm.name}`;
    const intro =
      `The virtual machine "${a.vm.name}" (${a.vm.image}, ${a.vm.ram} GB RAM) is assigned to you. ` +
      `Open it from the Virtual Machine card of your dashboard, or at ${deps.config.PUBLIC_URL}/vm/${a.vm.vm_name}.`;
    if (a.created) {
      await issuePasswordLink(deps, a.user, subject, `${intro} A TrainLab account was created for you.`);
    } else {
      await deps.mail.send({
        to: a.user.email,
        subject,
        text: `Hello ${a.user.first_name},\n\n${intro}\n\nSign in at ${deps.config.PUBLIC_URL}/login\n`,
      });
    }
  }
}

/** /assign-vm-to-user: one learner, the named lab or the oldest free one. */
export async function assignVm(deps: Deps, auth: AuthContext, body: z.output<typeof assignVmRequest>) {
  const tenant = managerTenant(auth);
  const done = await deps.db.transaction(async (tx) => {
    let vm: VmRow | undefined;
    if (body.name) {
      [vm] = await tx
        .select()
        .from(vms)
        .where(and(eq(vms.vm_name, body.name), vmTenantWhere(tenant), ne(vms.status, VM_STATUS.deleted)))
        .for('update');
      if (!vm) throw new ValidationError({ name: ['The selected VM is invalid.'] });
      if (vm.assigned_user_id) throw new ValidationError({ name: [MSG.labAlreadyAssigned] });
    } else {
      [vm] = await freeLabs(tx, tenant, 1);
      if (!vm) throw new ValidationError({ other_error: [MSG.labNoFreeVm] });
    }
    const account = (await accountsByEmail(tx, [body.email.toLowerCase()])).get(body.email.toLowerCase());
    if (account && !assignable(tenant, account)) throw new ValidationError({ email: [MSG.labNotAssignable] });
    return assignAll(deps, tx, tenant, [{ person: body, vm }]);
  });
  await notify(deps, done);
  return { message: MSG.recordAdded, vm_name: done[0]!.vm.vm_name, user_id: done[0]!.user.id };
}

/**
 * /vm-assign-to-user: learners from Excel, one free lab each; all rows or none. The rows are checked
 * and assigned batch by batch in one transaction, each batch taking (and locking) the next free
 * labs; e-mails repeated anywhere in the file are caught by a Set of those met so far. What the
 * mails need is kept until the commit: one entry per lab assigned, so no more than the tenant's labs.
 */
export async function assignVmsFromExcel(deps: Deps, auth: AuthContext, request: FastifyRequest) {
  const tenant = managerTenant(auth);
  const upload = await readUpload(request, deps.config.IMPORT_MAX_FILE_BYTES);
  const done = await streamImport(
    {
      maxRows: deps.config.IMPORT_MAX_ROWS,
      file: upload.file,
      filename: upload.filename,
      schema: trainingUserImportRow,
      columns: IMPORT_TEMPLATES['training-user'].columns,
    },
    (rows) =>
      deps.db.transaction(async (tx) => {
        const seen = new Set<string>();
        const assigned: Assigned[] = [];
        /** the tenant's free labs, counted once they ran short of the rows */
        let free: number | undefined;
        for await (const batch of rows) {
          const people: Person[] = batch.map(({ data }) => ({
            first_name: data.firstname,
            last_name: data.lastname,
            email: data.email,
            mobile_no: data.mobileno,
          }));
          const existing = await accountsByEmail(
            tx,
            people.map((p) => p.email.toLowerCase()),
          );
          people.forEach((p, i) => {
            const key = p.email.toLowerCase();
            const account = existing.get(key);
            if (seen.has(key)) rows.reject(batch[i]!.row, 'email', 'The email appears more than once in the file.');
            else if (account && !assignable(tenant, account)) rows.reject(batch[i]!.row, 'email', MSG.labNotAssignable);
            seen.add(key);
          });
          if (rows.failed || free !== undefined) continue;
          const labs = await freeLabs(tx, tenant, people.length);
          if (labs.length < people.length) {
            free = assigned.length + labs.length;
            continue;
          }
          assigned.push(
            ...(await assignAll(
              deps,
              tx,
              tenant,
              people.map((person, i) => ({ person, vm: labs[i]! })),
            )),
          );
        }
        if (free !== undefined) {
          throw new ValidationError({
            file: [`${MSG.labNoFreeVm} ${free} free, the file has ${rows.count} rows.`],
          });
        }
        return assigned;
      }),
  );
  await notify(deps, done);
  return { message: MSG.recordAdded, count: done.length };
}
