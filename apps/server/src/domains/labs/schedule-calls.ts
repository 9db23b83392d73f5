import {
  LAB_SCHEDULE_MSG,
  type labScheduleLeadRequest,
  type labSchedulesResponse,
  MSG,
  type tieLabRequest,
  VM_STATUS,
} from '@trainlab/contract';
import { and, desc, eq, ne } from 'drizzle-orm';
import type { z } from 'zod';
import { labAccounts, labScheduleEvents, labSchedules, syllabusTopics, trainings, vms } from '../../db/schema';
import type { Deps } from '../../platform/deps';
import { invalidField, notFound, ValidationError } from '../../platform/errors';
import type { AuthContext } from '../../platform/http/auth-context';
import { managerTenant } from '../../platform/tenancy';
import { trainingForManager } from '../trainings/access';
import { vmTenantWhere } from './access';
import { labAccountOf } from './account';
import { labsOfTie, scheduleSweep, tenantLead, windowsOf } from './schedule';

/** /training-lab-schedules {slug}: the training's ties with what they will do next and did last. */
export async function trainingLabSchedules(
  deps: Deps,
  auth: AuthContext,
  slug: string,
): Promise<z.input<typeof labSchedulesResponse>> {
  const training = await trainingForManager(deps, auth, slug);
  const tenant = managerTenant(auth);
  const fallback = await tenantLead(deps, tenant);
  const now = deps.clock();
  const ties = await deps.db
    .select({ tie: labSchedules, vm_name: vms.vm_name, name: vms.name })
    .from(labSchedules)
    .leftJoin(vms, eq(vms.id, labSchedules.vm_id))
    .where(eq(labSchedules.training_id, training.id))
    .orderBy(labSchedules.id);
  const list = [];
  for (const { tie, vm_name, name } of ties) {
    const lead = tie.lead_minutes ?? fallback;
    const windows = await windowsOf(deps, training.id, lead, tie.grace_minutes, now);
    const ahead = windows.find((w) => w.closes > now) ?? null;
    const [last] = await deps.db
      .select({ e: labScheduleEvents, vm_name: vms.vm_name, topic: syllabusTopics.session_topic })
      .from(labScheduleEvents)
      .innerJoin(vms, eq(vms.id, labScheduleEvents.vm_id))
      .innerJoin(syllabusTopics, eq(syllabusTopics.id, labScheduleEvents.topic_id))
      .where(eq(labScheduleEvents.schedule_id, tie.id))
      .orderBy(desc(labScheduleEvents.id))
      .limit(1);
    list.push({
      id: tie.id,
      vm_name: vm_name ?? null,
      name: name ?? null,
      lead_minutes: tie.lead_minutes,
      lead_in_force: lead,
      grace_minutes: tie.grace_minutes,
      labs: (await labsOfTie(deps, tie, tenant)).length,
      next_start: ahead && ahead.opens > now ? ahead.opens.toISOString() : null,
      next_stop: ahead ? ahead.closes.toISOString() : null,
      last_event: last
        ? {
            action: last.e.action as 'start' | 'stop',
            at: last.e.at.toISOString(),
            vm_name: last.vm_name,
            topic: last.topic,
            outcome: last.e.outcome,
          }
        : null,
    });
  }
  return { slug: training.slug, lead_minutes_default: fallback, list };
}

/** /tie-lab-to-training: one lab of the tenant, or (no vm_name) the labs of the training's learners. */
export async function tieLab(deps: Deps, auth: AuthContext, body: z.output<typeof tieLabRequest>) {
  const training = await trainingForManager(deps, auth, body.slug);
  let vmId: number | null = null;
  if (body.vm_name) {
    const [vm] = await deps.db
      .select({ id: vms.id })
      .from(vms)
      .where(and(eq(vms.vm_name, body.vm_name), vmTenantWhere(managerTenant(auth)), ne(vms.status, VM_STATUS.deleted)))
      .limit(1);
    // another tenant's lab reads as one that does not exist, like a wrong name
    if (!vm) throw invalidField('vm_name', LAB_SCHEDULE_MSG.vmInvalid);
    vmId = vm.id;
  }
  const [row] = await deps.db
    .insert(labSchedules)
    .values({
      training_id: training.id,
      vm_id: vmId,
      lead_minutes: body.lead_minutes,
      grace_minutes: body.grace_minutes,
      created_by: auth.user.id,
    })
    .onConflictDoNothing()
    .returning({ id: labSchedules.id });
  if (!row) throw invalidField('vm_name', LAB_SCHEDULE_MSG.alreadyTied);
  // a topic may be under way already: the sweep comes at once
  await scheduleSweep(deps);
  return { message: LAB_SCHEDULE_MSG.tied };
}

/** /untie-lab-from-training {id}: a tie of a training of the caller's tenant; 404 otherwise. */
export async function untieLab(deps: Deps, auth: AuthContext, id: number) {
  const [row] = await deps.db
    .select({ id: labSchedules.id, training: trainings })
    .from(labSchedules)
    .innerJoin(trainings, eq(trainings.id, labSchedules.training_id))
    .where(eq(labSchedules.id, id))
    .limit(1);
  if (!row) throw notFound();
  // the same tenant check as every training call
  await trainingForManager(deps, auth, row.training.slug);
  await deps.db.delete(labSchedules).where(eq(labSchedules.id, id));
  return { message: LAB_SCHEDULE_MSG.untied };
}

/** /update-lab-schedule-lead {lead_minutes}: the tenant's default, kept on its lab account. */
export async function updateScheduleLead(deps: Deps, auth: AuthContext, body: z.output<typeof labScheduleLeadRequest>) {
  const account = await labAccountOf(deps, managerTenant(auth));
  if (!account) throw new ValidationError({ other_error: [MSG.labAccountMissing] });
  await deps.db
    .update(labAccounts)
    .set({ schedule_lead_minutes: body.lead_minutes })
    .where(eq(labAccounts.id, account.id));
  await scheduleSweep(deps);
  return { message: LAB_SCHEDULE_MSG.leadSaved };
}
