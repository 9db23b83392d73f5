import { randomBytes, randomInt } from 'node:crypto';
import { type createVmRequest, MSG, protocolFor, VM_STATUS } from '@trainlab/contract';
import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import { vms } from '../../db/schema';
import type { Deps } from '../../platform/deps';
import { ValidationError } from '../../platform/errors';
import type { AuthContext } from '../../platform/http/auth-context';
import { LabEngineError } from '../../platform/ports/labs';
import { managerTenant, tenantColumns } from '../../platform/tenancy';
import { labAccountOf } from './account';

const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
/** A generated lab password: 16 characters from an unambiguous alphabet, plus a digit and a symbol. */
export function generatePassword(): string {
  let out = '';
  for (let i = 0; i < 16; i++) out += ALPHABET[randomInt(ALPHABET.length)];
  return `${out}${randomInt(10)}@`;
}

/** vm_name: `tl-` and 10 hex characters: unique, URL-safe, a valid login name on Linux. */
const newVmName = () => `tl-${randomBytes(5).toString('hex')}`;
/** the lab's login: `tllab_` and the name's suffix (a valid user name on Linux and Windows) */
const loginFor = (vmName: string) => `tllab_${vmName.slice(3)}`;

/** /gc-create-vm: count labs with the spec's rules (checked by the contract), on the tenant's engine. */
export async function createVms(deps: Deps, auth: AuthContext, body: z.output<typeof createVmRequest>) {
  const tenant = managerTenant(auth);
  const account = await labAccountOf(deps, tenant);
  if (!account?.authorized_at) throw new ValidationError({ other_error: [MSG.labAccountMissing] });
  const engine = deps.labs;
  const problem = await engine.problem();
  if (problem) throw new ValidationError({ other_error: [problem] });

  const created: { name: string; vm_name: string; username: string; password: string }[] = [];
  for (let i = 0; i < body.count; i++) {
    const vmName = newVmName();
    const password = generatePassword();
    const username = loginFor(vmName);
    const label = body.name
      ? body.count > 1
        ? `${body.name} ${i + 1}`
        : body.name
      : `${body.image} ${body.ram} GB${body.count > 1 ? ` ${i + 1}` : ''}`;
    const [row] = await deps.db
      .insert(vms)
      .values({
        ...tenantColumns(tenant),
        vm_name: vmName,
        name: label,
        image: body.image,
        protocol: protocolFor(body.image),
        zone: body.zone,
        ram: body.ram,
        storage: body.storage,
        status: VM_STATUS.create,
        engine: engine.name,
        created_by: auth.user.id,
        username,
        password_enc: deps.cipher.encrypt(password),
      })
      .returning();
    // the record stays as deleted when the create does not finish, so the name is never reused
    const abandon = () =>
      deps.db.update(vms).set({ status: VM_STATUS.deleted, deleted_at: new Date() }).where(eq(vms.id, row!.id));
    let ref: string;
    try {
      ({ ref } = await engine.create({
        vmName,
        username,
        password,
        image: body.image,
        ram: body.ram,
        storage: body.storage,
        zone: body.zone,
        softwares: body.softwares,
      }));
    } catch (e) {
      await abandon();
      const message = e instanceof LabEngineError ? e.message : 'The lab engine could not create the VM.';
      throw new ValidationError({ other_error: [message] });
    }
    // The create is acknowledged once the record holds the engine's reference. When that write fails
    // (the database went away), the machine is undone now, or else by reconcileOrphans later: the
    // caller's retry must not leave two labs.
    try {
      await deps.db.update(vms).set({ engine_ref: ref }).where(eq(vms.id, row!.id));
    } catch (e) {
      await engine.delete(ref).catch(() => undefined);
      await abandon().catch(() => undefined);
      throw e;
    }
    created.push({ name: label, vm_name: vmName, username, password });
  }
  return { message: MSG.vmCreated, list: created };
}
