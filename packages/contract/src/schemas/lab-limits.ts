import { z } from 'zod';

/**
 * Per-tenant lab limits (issue 39), set by the admin in master data: how many of a tenant's labs may
 * run at once and how much RAM (GB) they may hold together. Null: no limit. Enforced on the server at
 * every start (a person's and the schedule's alike).
 */
export const LAB_TENANT_LIMITS = { maxRunningLabs: 10_000, maxRunningRamGb: 100_000 } as const;

const blank = (v: unknown) => (v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v);
const optionalLimit = (max: number) =>
  z.preprocess(blank, z.coerce.number().int().min(1).max(max).nullish()).transform((v) => v ?? null);

export const labTenantLimitRow = z.object({
  /** the tenant's lab account */
  id: z.number(),
  kind: z.enum(['provider', 'organization']),
  /** the provider's name or the organization's */
  tenant: z.string(),
  username: z.string(),
  max_running_labs: z.number().nullable(),
  max_running_ram_gb: z.number().nullable(),
  /** what runs now */
  running_labs: z.number(),
  running_ram_gb: z.number(),
});
export const labTenantLimitsResponse = z.object({ list: z.array(labTenantLimitRow) });

export const updateLabTenantLimitsRequest = z.object({
  id: z.preprocess(blank, z.coerce.number().int().min(1).max(2_147_483_647)),
  max_running_labs: optionalLimit(LAB_TENANT_LIMITS.maxRunningLabs),
  max_running_ram_gb: optionalLimit(LAB_TENANT_LIMITS.maxRunningRamGb),
});
