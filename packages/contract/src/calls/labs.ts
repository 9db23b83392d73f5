import type { ApiCall } from '../api-base.js';
import { call, empty } from '../api-base.js';
import { LEARNER_ROLES, type Role } from '../roles.js';
import { importResponse } from '../schemas/imports.js';
import * as l from '../schemas/labs.js';

/** Providers, organizations and org sub-admins manage the labs of their own tenant. */
const MANAGERS: readonly Role[] = ['provider', 'organization', 'org_subadmin'];
/** Managers, plus the learner a lab is assigned to. */
const LAB_USERS: readonly Role[] = [...MANAGERS, ...LEARNER_ROLES];

/** Cloud labs (spec 02 §7 Virtual machines; /get-pricing is with the admin's VM pricing). */
export const LAB_CALLS = {
  registerGcAccount: call(
    'register-gc-account',
    MANAGERS,
    'Register the tenant’s lab (cloud) account: username, email, first_name, last_name, password, password2. One per tenant.',
    l.registerLabAccountRequest,
    l.vmMessage,
  ),
  authorizeGcAccount: call(
    'authorize-gc-account',
    MANAGERS,
    'Sign in to the tenant’s lab account {username, password}; labs can be created once it is authorized.',
    l.authorizeLabAccountRequest,
    l.vmMessage,
  ),
  checkGcAcExist: call(
    'check-gc-ac-exist',
    MANAGERS,
    'Whether the tenant has a lab account (exist 1/0) and whether it is authorized.',
    empty,
    l.labAccountExistResponse,
  ),
  gcCreateVm: call(
    'gc-create-vm',
    MANAGERS,
    'Create count labs (spec 02 §5 rules: RAM 2/4/8/16/32, minimum RAM 2 GB Linux / 4 GB Windows, minimum storage 10/50 GB, protocol ssh/rdp by OS, zone from the lookup). Each lab’s generated password is in this answer only.',
    l.createVmRequest,
    l.createVmResponse,
  ),
  vmList: call(
    'vm-list',
    MANAGERS,
    'Labs of the caller’s tenant (deleted ones excluded unless status 3 is asked); paged, searchable by name or vm_name.',
    l.vmListRequest,
    l.vmListResponse,
  ),
  vmDetails: call(
    'vm-details',
    MANAGERS,
    'One lab of the tenant by vm_name with its usage rows (Assign 1, Start 2, Stop 3), used minutes and cost.',
    l.vmNameRequest,
    l.vmDetailsResponse,
  ),
  vmDelete: call(
    'vm-delete',
    MANAGERS,
    'Delete a lab {name}: a running meter is closed first; the lab goes to status 3.',
    l.vmNameRequest,
    l.vmMessage,
  ),
  vmStartStop: call(
    'vm-start-stop',
    LAB_USERS,
    'Start or stop a lab {action, name, is_user}: managers of its tenant, or the learner it is assigned to. A start opens a usage row, a stop closes it with minutes and cost; a start is refused past the tenant’s monthly caps.',
    l.vmStartStopRequest,
    l.vmStartStopResponse,
  ),
  getVmCount: call('get-vm-count', MANAGERS, 'Counts of the tenant’s labs by state.', empty, l.vmCountResponse),
  assignVmToUser: call(
    'assign-vm-to-user',
    MANAGERS,
    'Assign a lab to one learner {first_name, last_name, email, mobile_no, name?}; a missing learner account is created; the learner is e-mailed.',
    l.assignVmRequest,
    l.assignVmResponse,
  ),
  vmAssignToUser: call(
    'vm-assign-to-user',
    MANAGERS,
    'Assign the tenant’s free labs to learners from an .xls/.xlsx file (columns firstname, lastname, email, mobileno; one free lab per row); all rows or none.',
    l.vmAssignUploadRequest,
    importResponse,
    { multipart: true },
  ),
  vmConnection: call(
    'vm-connection',
    LAB_USERS,
    'What /vm/{name} needs to connect: display size, the ways in (terminal, desktop, rdp) and the engine’s readiness. Managers of the tenant and the assigned learner only.',
    l.vmNameRequest,
    l.vmConnectionResponse,
  ),
  labSettings: call(
    'lab-settings',
    MANAGERS,
    'The tenant’s lab rules: idle stop (seconds without connection or input), monthly caps on running hours and spend (paise). 422 other_error when there is no lab account.',
    empty,
    l.labSettings,
  ),
  updateLabSettings: call(
    'update-lab-settings',
    MANAGERS,
    'Set the tenant’s lab rules; an empty value removes a rule.',
    l.updateLabSettingsRequest,
    l.labSettings,
  ),
} satisfies Record<string, ApiCall>;
