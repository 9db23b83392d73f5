import { LEARNER_ROLES, type labViewsResponse, VM_STATUS } from '@trainlab/contract';
import { and, asc, eq, ne } from 'drizzle-orm';
import type { z } from 'zod';
import { trainings, trainingUsers, users, vms } from '../../db/schema';
import type { Deps } from '../../platform/deps';
import type { AuthContext } from '../../platform/http/auth-context';
import type { LabEndpoint } from '../../platform/ports/labs';
import { staffCanSee, trainingForStaff } from '../trainings/access';
import type { VmRow } from './access';

/**
 * The instructor's over-the-shoulder view (decision 0026): a training's moderators (its tenant's
 * managers and assigned trainers) watch the desktops of the labs assigned to its enrolled
 * learners, view-only. The view-only socket is /ws/labs/vnc/{name}?view={slug}; the proxy drops
 * every input of such a socket (rfb-view-only.ts), and the socket does not keep the lab awake.
 */

export const viewPath = (vmName: string, slug: string) =>
  `/ws/labs/vnc/${encodeURIComponent(vmName)}?view=${encodeURIComponent(slug)}`;

/** Labs of the training's tenant assigned to its enrolled learners (deleted ones left out). */
function learnerLabs(deps: Deps, training: typeof trainings.$inferSelect, vmName?: string) {
  return deps.db
    .select({ vm: vms, user: { id: users.id, first_name: users.first_name, last_name: users.last_name } })
    .from(vms)
    .innerJoin(
      trainingUsers,
      and(eq(trainingUsers.user_id, vms.assigned_user_id), eq(trainingUsers.training_id, training.id)),
    )
    .innerJoin(users, eq(users.id, vms.assigned_user_id))
    .where(
      and(
        ne(vms.status, VM_STATUS.deleted),
        training.owner_user_id
          ? eq(vms.owner_user_id, training.owner_user_id)
          : eq(vms.organization_id, training.organization_id!),
        vmName ? eq(vms.vm_name, vmName) : undefined,
      ),
    )
    .orderBy(asc(users.first_name), asc(users.last_name), asc(vms.id));
}

/** /training-lab-views {slug} */
export async function trainingLabViews(
  deps: Deps,
  auth: AuthContext,
  slug: string,
): Promise<z.input<typeof labViewsResponse>> {
  const training = await trainingForStaff(deps, auth, { slug });
  const rows = await learnerLabs(deps, training);
  const engine = deps.labs;
  const list = [];
  for (const { vm, user } of rows) {
    let desktop = false;
    if (vm.status === VM_STATUS.start) {
      const endpoint = await engine.connection(vm.engine_ref ?? vm.vm_name).catch(() => ({}) as LabEndpoint);
      desktop = !!endpoint.vnc || !!endpoint.viaEngine?.desktop;
    }
    list.push({
      user_id: user.id,
      first_name: user.first_name,
      last_name: user.last_name,
      vm_name: vm.vm_name,
      name: vm.name,
      status: vm.status,
      desktop,
      view_path: desktop ? viewPath(vm.vm_name, training.slug) : null,
    });
  }
  return { slug: training.slug, list };
}

/**
 * Whether `auth` may watch lab `name` view-only through training `slug`: a moderator of the
 * training (never a learner, even one who is also staff elsewhere), and the lab belongs to one of
 * its enrolled learners in its tenant. Answers the lab, or null (the socket closes 4404).
 */
export async function watchableLab(deps: Deps, auth: AuthContext, slug: string, name: string): Promise<VmRow | null> {
  if (LEARNER_ROLES.some((r) => auth.user.roles.includes(r))) return null;
  const [training] = await deps.db.select().from(trainings).where(eq(trainings.slug, slug)).limit(1);
  if (!training || !(await staffCanSee(deps, auth, training).catch(() => false))) return null;
  const [row] = await learnerLabs(deps, training, name);
  return row?.vm ?? null;
}
