import { API } from '@trainlab/contract';
import type { FastifyInstance } from 'fastify';
import { vms } from '../../db/schema';
import { audited, importTarget } from '../../platform/audit';
import type { Deps } from '../../platform/deps';
import { whenDatabaseReady } from '../../platform/http/database-ready';
import { defineCall } from '../../platform/http/define-call';
import { authorizeLabAccount, checkLabAccount, labSettings, registerLabAccount } from './account';
import { assignVm, assignVmsFromExcel } from './assign';
import { createVms } from './create';
import { deleteLab, vmStartStop } from './lifecycle';
import { reconcileLabs } from './metering';
import { reconcileOrphans } from './orphans';

const ORPHANS_EVERY_MS = 5 * 60_000;

import { labScheduleRoutes } from './schedule-routes';
import { vmConnection, vmCount, vmDetails, vmList } from './views';
import { labSockets } from './ws';

/** Cloud labs (spec 02 §7 Virtual machines). /get-pricing lives with the admin's VM pricing. */
export function labRoutes(app: FastifyInstance, deps: Deps): void {
  defineCall(app, deps, API.registerGcAccount, ({ auth, body }) => registerLabAccount(deps, auth, body));
  defineCall(app, deps, API.authorizeGcAccount, ({ auth, body }) => authorizeLabAccount(deps, auth, body));
  defineCall(app, deps, API.checkGcAcExist, ({ auth }) => checkLabAccount(deps, auth));
  defineCall(
    app,
    deps,
    API.gcCreateVm,
    audited(API.gcCreateVm, { type: 'vm' }, ({ auth, body }) => createVms(deps, auth, body)),
  );
  defineCall(app, deps, API.vmList, ({ auth, body }) => vmList(deps, auth, body), {
    cache: { tables: ['vms', 'users'] },
  });
  defineCall(app, deps, API.vmDetails, ({ auth, body }) => vmDetails(deps, auth, body.name));
  defineCall(
    app,
    deps,
    API.vmDelete,
    audited(API.vmDelete, { type: 'vm', table: vms, key: 'name', column: vms.vm_name }, ({ auth, body }) =>
      deleteLab(deps, auth, body.name),
    ),
  );
  defineCall(
    app,
    deps,
    API.vmStartStop,
    audited(API.vmStartStop, { type: 'vm', table: vms, key: 'name', column: vms.vm_name }, ({ auth, body }) =>
      vmStartStop(deps, auth, body),
    ),
  );
  defineCall(app, deps, API.getVmCount, ({ auth }) => vmCount(deps, auth));
  defineCall(
    app,
    deps,
    API.assignVmToUser,
    audited(API.assignVmToUser, { type: 'vm-assignment' }, ({ auth, body }) => assignVm(deps, auth, body)),
  );
  defineCall(
    app,
    deps,
    API.vmAssignToUser,
    audited(API.vmAssignToUser, importTarget('vm_assignments'), ({ auth, request }) =>
      assignVmsFromExcel(deps, auth, request),
    ),
  );
  defineCall(app, deps, API.vmConnection, ({ auth, body }) => vmConnection(deps, auth, body.name));

  defineCall(app, deps, API.labSettings, ({ auth }) => labSettings(deps, auth));
  defineCall(
    app,
    deps,
    API.updateLabSettings,
    audited(API.updateLabSettings, { type: 'lab-settings' }, ({ auth, body }) => labSettings(deps, auth, body)),
  );
  labSockets(app, deps);
  labScheduleRoutes(app, deps);

  // a restart never loses or doubles a meter: records are made to agree with the engine at start-up
  const reconcile = async () => {
    try {
      await reconcileLabs(deps);
      await reconcileOrphans(deps);
    } catch (e) {
      app.log.error({ err: e }, 'lab reconciliation failed');
    }
  };
  // creates a fault left unfinished are undone within minutes, not only at the next start
  let timer: NodeJS.Timeout | undefined;
  whenDatabaseReady(app, async () => {
    await reconcile();
    timer = setInterval(() => void reconcileOrphans(deps).catch(() => undefined), ORPHANS_EVERY_MS);
    timer.unref();
  });
  app.addHook('onClose', async () => clearInterval(timer));
}
