import { z } from 'zod';
import { CLOUD_ZONES, OPERATING_SYSTEMS, PASSWORD_MIN_LENGTH } from '../lookups.js';
import { ALWAYS, emailField, mobileField, requiredText } from '../validation.js';
import { listFields, pagedList } from './paging.js';

/**
 * Cloud labs (spec 02 §3 VM, VM usage, VM create payload, VM account; §4 VM states; §5 Create VM).
 * Money travels as rupees (cost) next to integer paise (cost_paise); times as ISO 8601 strings.
 */

/** VM status: Create 0, Start 1, Stop 2, Deleted 3. */
export const VM_STATUS = { create: 0, start: 1, stop: 2, deleted: 3 } as const;
export const VM_STATUS_LABELS = ['Create', 'Start', 'Stop', 'Deleted'] as const;
/** What each status means for a person, shown on badges and tiles: a lab just created has not run yet. */
export const VM_STATE_LABELS = ['Not started', 'Running', 'Stopped', 'Deleted'] as const;
/** VM usage status: Assign 1, Start 2, Stop 3. */
export const VM_USAGE_STATUS = { assign: 1, start: 2, stop: 3 } as const;
export const VM_USAGE_STATUS_LABELS: Record<number, string> = { 1: 'Assign', 2: 'Start', 3: 'Stop' };

/** Spec 02 §5: RAM options and per-OS minimums and defaults. */
export const VM_RAM_OPTIONS = [2, 4, 8, 16, 32] as const;
export const VM_LIMITS = {
  windows: { minRam: 4, minStorage: 50, defaultStorage: 50 },
  linux: { minRam: 2, minStorage: 10, defaultStorage: 10 },
  maxStorage: 2000,
  maxCount: 10,
  defaultRam: 2,
  defaultCount: 1,
} as const;
/** Spec 02 §9: remote display size. */
export const VM_DISPLAY = { width: 1296, height: 765 } as const;
/** Why a Windows lab has no desktop in the browser when the server has no guacd (GUACD_HOST). */
export const RDP_GATEWAY_MISSING =
  'Windows desktops open through the remote-desktop gateway (guacd), which is not configured on this server: set GUACD_HOST.';
/** The live price on /create-vm is recalculated this long after the last input. */
export const VM_PRICE_DEBOUNCE_MS = 1000;

export type OperatingSystem = (typeof OPERATING_SYSTEMS)[number];
export const isWindows = (image: string) => image === 'windows';
/** Protocol fixed by OS: rdp for Windows, ssh otherwise. */
export const protocolFor = (image: string) => (isWindows(image) ? 'rdp' : 'ssh');
export const limitsFor = (image: string) => (isWindows(image) ? VM_LIMITS.windows : VM_LIMITS.linux);

const blank = (v: unknown) => (v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v);
const wholeNumber = () => z.preprocess(blank, z.coerce.number().int());
const vmName = () => z.string().trim().min(1, { abort: true }).max(64);

// ---- lab (cloud) account ----------------------------------------------------------------------

export const registerLabAccountRequest = z
  .object({
    username: requiredText(60).regex(/^[A-Za-z0-9_.-]+$/, {
      message: 'The username may only contain letters, numbers, dots, dashes and underscores.',
    }),
    email: emailField(),
    first_name: requiredText(100),
    last_name: requiredText(100),
    password: z.string().min(1).min(PASSWORD_MIN_LENGTH).max(200),
    password2: z.string().min(1).max(200),
  })
  .refine((b) => !b.password2 || b.password === b.password2, {
    message: 'The password2 and password must match.',
    path: ['password2'],
    ...ALWAYS,
  });
export const authorizeLabAccountRequest = z.object({
  username: requiredText(60),
  password: z.string().min(1).max(200),
});
export const labAccountExistResponse = z.object({
  /** 1 when the tenant has a lab account */
  exist: z.number(),
  /** 1 when the account was authorized (signed in once) */
  authorized: z.number(),
  username: z.string().nullable(),
});

// ---- create ----------------------------------------------------------------------------------

export const createVmRequest = z
  .object({
    image: z.preprocess(blank, z.enum(OPERATING_SYSTEMS)),
    protocol: z.preprocess(blank, z.enum(['ssh', 'rdp'])),
    zone: z.preprocess(blank, z.enum(CLOUD_ZONES)),
    count: wholeNumber().pipe(z.number().min(1).max(VM_LIMITS.maxCount)),
    softwares: z
      .union([z.string().max(500), z.array(z.string().max(100)).max(20)])
      .nullish()
      .transform((v) => (Array.isArray(v) ? v.join(', ') : (v ?? ''))),
    storage: wholeNumber().pipe(z.number().min(1).max(VM_LIMITS.maxStorage)),
    ram: wholeNumber().pipe(
      z.number().refine((v) => (VM_RAM_OPTIONS as readonly number[]).includes(v), {
        message: `The ram must be one of: ${VM_RAM_OPTIONS.join(', ')}.`,
      }),
    ),
    /** optional label; defaults to the OS and size */
    name: z.preprocess(blank, z.string().trim().max(60).optional()),
  })
  .superRefine((b, ctx) => {
    if (typeof b.image !== 'string') return;
    const lim = limitsFor(b.image);
    const os = isWindows(b.image) ? 'Windows' : 'Linux';
    if (typeof b.ram === 'number' && (VM_RAM_OPTIONS as readonly number[]).includes(b.ram) && b.ram < lim.minRam) {
      ctx.addIssue({ code: 'custom', path: ['ram'], message: `The ram must be at least ${lim.minRam} GB for ${os}.` });
    }
    if (typeof b.storage === 'number' && b.storage < lim.minStorage) {
      ctx.addIssue({
        code: 'custom',
        path: ['storage'],
        message: `The storage must be at least ${lim.minStorage} GB for ${os}.`,
      });
    }
    if (typeof b.protocol === 'string' && b.protocol !== protocolFor(b.image)) {
      ctx.addIssue({
        code: 'custom',
        path: ['protocol'],
        message: `The protocol must be ${protocolFor(b.image)} for ${os}.`,
      });
    }
  });
export const createdVm = z.object({
  name: z.string(),
  vm_name: z.string(),
  /** the lab's login: shown once, here */
  username: z.string(),
  password: z.string(),
});
export const createVmResponse = z.object({ message: z.string(), list: z.array(createdVm) });

// ---- list, details, lifecycle -----------------------------------------------------------------

export const VM_SORTS = ['name', 'vm_name', 'created', 'status', 'ram'] as const;
export const vmListRequest = z.object({
  ...listFields(VM_SORTS),
  status: z.preprocess(blank, z.coerce.number().int().min(0).max(3).optional()),
});
export const vmRow = z.object({
  id: z.number(),
  name: z.string(),
  vm_name: z.string(),
  image: z.string(),
  protocol: z.string(),
  zone: z.string(),
  ram: z.number(),
  storage: z.number(),
  created: z.string(),
  status: z.number(),
  engine: z.string(),
  assigned_user: z
    .object({ id: z.number(), first_name: z.string(), last_name: z.string(), email: z.string() })
    .nullable(),
  assigned_at: z.string().nullable(),
  last_activity_at: z.string().nullable(),
});
export const vmListResponse = pagedList(vmRow);
export const vmNameRequest = z.object({ name: vmName() });
export const vmUsageRow = z.object({
  id: z.number(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  vm_start: z.string().nullable(),
  vm_stop: z.string().nullable(),
  used_min: z.number(),
  /** rupees */
  cost: z.number(),
  cost_paise: z.number(),
  status: z.number(),
  paid: z.number(),
});
export const vmDetailsResponse = z.object({
  data: vmRow.extend({
    /** rupees per running hour, exact to 4 decimals (lab-price.ts) */
    hourly_price: z.number(),
    /** how hourly_price is made, in rupees: machine per hour + storage per month (and per hour) */
    price: z.object({ machine_per_hour: z.number(), storage_per_month: z.number(), storage_per_hour: z.number() }),
    username: z.string(),
  }),
  usage: z.array(vmUsageRow),
  total_cost: z.number(),
  total_cost_paise: z.number(),
  used_min: z.number(),
});
export const vmStartStopRequest = z.object({
  action: z.preprocess(blank, z.enum(['start', 'stop'])),
  name: vmName(),
  /** 1 when a learner acts on the lab assigned to them */
  is_user: z
    .union([z.boolean(), z.literal(0), z.literal(1), z.literal('0'), z.literal('1')])
    .optional()
    .transform((v) => v === true || v === 1 || v === '1'),
});
export const vmStartStopResponse = z.object({ message: z.string(), status: z.number() });
export const vmMessage = z.object({ message: z.string() });
export const vmCountResponse = z.object({
  count: z.number(),
  running: z.number(),
  /** status Stop only: a lab created and never started is counted in not_started */
  stopped: z.number(),
  not_started: z.number(),
  assigned: z.number(),
  unassigned: z.number(),
});

// ---- assignment --------------------------------------------------------------------------------

export const assignVmRequest = z.object({
  first_name: requiredText(100),
  last_name: requiredText(100),
  email: emailField(),
  mobile_no: mobileField(),
  /** the lab to assign; omitted: the tenant's oldest unassigned lab */
  name: z.preprocess(blank, vmName().optional()),
});
export const assignVmResponse = z.object({ message: z.string(), vm_name: z.string(), user_id: z.number() });
export const vmAssignUploadRequest = z.object({
  file: z.unknown().optional().describe('The .xls or .xlsx file (columns firstname, lastname, email, mobileno).'),
});

// ---- connection -------------------------------------------------------------------------------

export const vmConnectionResponse = z.object({
  vm_name: z.string(),
  name: z.string(),
  image: z.string(),
  protocol: z.string(),
  status: z.number(),
  width: z.number(),
  height: z.number(),
  /** ways in the browser, by engine and OS */
  terminal: z.boolean(),
  desktop: z.boolean(),
  rdp: z.boolean(),
  /** the engine's readiness: null when ready, else why it cannot run labs */
  problem: z.string().nullable(),
  /** Windows labs: null when the remote-desktop gateway (guacd) is configured, else why not */
  rdp_problem: z.string().nullable(),
  /** the lab's login for the person who may open it */
  username: z.string(),
});

/** d_vm_data of /lpu/dashboard-data: the learner's lab. */
export const learnerVm = z.object({
  vm_name: z.string(),
  name: z.string(),
  created_at: z.string(),
  status: z.number(),
});

// ---- tenant lab settings ------------------------------------------------------------------------

/** Idle stop and monthly caps of the tenant's labs (null: none). */
export const labSettings = z.object({
  idle_stop_seconds: z.number().nullable(),
  cap_hours_month: z.number().nullable(),
  cap_paise_month: z.number().nullable(),
});
const optionalLimit = (max: number) =>
  z.preprocess(blank, z.coerce.number().int().min(1).max(max).nullish()).transform((v) => v ?? null);
export const updateLabSettingsRequest = z.object({
  idle_stop_seconds: optionalLimit(7 * 24 * 3600),
  cap_hours_month: optionalLimit(744 * 100),
  cap_paise_month: optionalLimit(1_000_000_000),
});
