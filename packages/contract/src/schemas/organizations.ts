import { z } from 'zod';
import { MSG } from '../messages.js';
import { ROLES, USER_TYPES } from '../roles.js';
import { emailField, idField, mobileField, optionalText, requiredText } from '../validation.js';
import { listFields, listRequest, pagedList } from './paging.js';

/**
 * Organizations, approvals, managed users and trainers (spec 01 §3-§5, spec 02 §2 'Admin
 * approvals', §3-§7). Texts the spec gives are verbatim; the others are ours, kept here so the
 * server and the web client read the same words.
 */
export const ORG_MSG = {
  organizationRegistered: 'Wait for account approval you will get mail.',
  organizationApproved: 'Organization approved successfully!',
  organizationUnapproved: 'Organization approval withdrawn successfully!',
  organizationActivated: 'Organization activated successfully!',
  organizationDeactivated: 'Organization deactivated successfully!',
  requestAccepted: 'Request accepted successfully!',
  requestRejected: 'Request rejected successfully!',
  requestAlreadyProcessed: 'This request has already been processed.',
  recordAdded: MSG.recordAdded,
  recordUpdated: MSG.recordUpdated,
  trainerRegistered: MSG.trainerRegistered,
  emailTaken: 'The email has already been taken.',
  nameTaken: 'The name has already been taken.',
  noOrganization: 'Your account is not linked to an organization.',
} as const;

/** Days a set-password link e-mailed to an account created by someone else stays valid. */
export const SET_PASSWORD_LINK_DAYS = 7;

/** A 1/0 decision (also "1"/"0", true/false); a missing one reads as "required" like any other field. */
const decision = (field: string) =>
  z
    .union([z.boolean(), z.literal(0), z.literal(1), z.literal('0'), z.literal('1')], {
      error: (issue) =>
        issue.input === undefined || issue.input === null || issue.input === ''
          ? `The ${field} field is required.`
          : `The selected ${field} is invalid.`,
    })
    .transform((v) => v === true || v === 1 || v === '1');

const orgList = <T extends z.ZodType>(item: T) => z.object({ list: z.array(item) });
const when = z.string();
const blankToNull = (v: unknown) =>
  v === '' || v === 0 || v === '0' || (typeof v === 'string' && !v.trim()) ? null : v;
/** An optional id from a select: '', 0 and null all mean "none". */
const optionalId = () => z.preprocess(blankToNull, idField().nullish()).transform((v) => v ?? null);
const link = () =>
  z
    .string()
    .trim()
    .min(1, { abort: true })
    .max(500)
    .pipe(z.url({ protocol: /^https?$/ }));
/** An e-mail domain ("acme.com"); a pasted "@acme.com" or "https://acme.com/" is read as "acme.com". */
const domain = () =>
  z
    .string()
    .trim()
    .min(1, { abort: true })
    .max(150)
    .transform((v) =>
      v
        .toLowerCase()
        .replace(/^[a-z]+:\/\//, '')
        .replace(/^@/, '')
        .replace(/\/.*$/, ''),
    )
    .pipe(z.string().regex(/^[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?$/, { message: 'The org domain format is invalid.' }));

// ---- organizations -------------------------------------------------------------------------

export const organizationRecord = z.object({
  id: z.number(),
  slug: z.string(),
  name: z.string(),
  email: z.string(),
  description: z.string().nullable(),
  status: z.number(),
  is_approved: z.number(),
  org_domain: z.string().nullable(),
  sp_link: z.string().nullable(),
  ip_link: z.string().nullable(),
  org_id: z.number().nullable(),
  created_at: when,
});
export type OrganizationRecord = z.infer<typeof organizationRecord>;
export const ORGANIZATION_SORT_KEYS = ['name', 'email', 'created_at'] as const;
/** The admin's organization lists: paged, searchable by name, e-mail or domain. */
export const organizationsRequest = listRequest(ORGANIZATION_SORT_KEYS);
export const organizationList = pagedList(organizationRecord);

export const registerOrganizationRequest = z.object({
  name: requiredText(150),
  email: emailField(),
  /** the parent organization, when this one belongs to another */
  org_id: optionalId(),
  org_domain: domain(),
  sp_link: z.preprocess(blankToNull, link().nullish()).transform((v) => v ?? null),
  ip_link: link(),
  description: optionalText(2000),
});
export const registerOrganizationResponse = z.object({ message: z.string(), id: z.number(), slug: z.string() });

export const orgApprovedRequest = z.object({ org_id: idField(), is_approved: decision('is approved') });
export const orgStatusRequest = z.object({ org_id: idField(), status: decision('status') });
export const orgChangeResponse = z.object({
  message: z.string(),
  org_id: z.number(),
  is_approved: z.number(),
  status: z.number(),
});

// ---- learning provider requests ------------------------------------------------------------

/**
 * Which accounts an admin list shows: 'request' (or 0, as existing clients send, number or text) the
 * ones waiting for approval; 1 or anything else the accepted ones.
 */
const requestType = z.preprocess(
  (v) => (v === 0 || v === '0' ? 'request' : v === 1 || v === '1' ? 'accepted' : v),
  z.string().trim().max(50).nullish(),
);

export const MANAGED_USER_SORT_KEYS = ['first_name', 'last_name', 'email', 'created_at'] as const;

/** `role` is the numeric account type of the admin lists (3 learning provider); a role name is read too. */
export const adminUsersListRequest = z.object({
  role: z.preprocess(
    (v) => (typeof v === 'string' && v in USER_TYPES ? USER_TYPES[v as keyof typeof USER_TYPES] : v),
    z.coerce
      .number({ message: 'The role field is required.' })
      .int()
      .refine((n) => (Object.values(USER_TYPES) as number[]).includes(n), { message: 'The selected role is invalid.' }),
  ),
  /** 'request' or 0 lists accounts waiting for approval; 1 or anything else the approved ones */
  type: requestType,
  ...listFields(MANAGED_USER_SORT_KEYS),
});
export const adminUserRow = z.object({
  id: z.number(),
  slug: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  mobile_no: z.string().nullable(),
  status: z.number(),
  is_approved: z.number(),
  created_at: when,
});
export const adminUsersListResponse = pagedList(adminUserRow);

export const childUsersListRequest = z.object({ slug: requiredText(200) });
export const childUserRow = z.object({
  id: z.number(),
  slug: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  mobile_no: z.string().nullable(),
  status: z.number(),
  created_at: when,
});
export const childUsersListResponse = orgList(childUserRow);

export const providerRequestDecision = z.object({ id: idField(), status: decision('status') });
export const decisionResponse = z.object({ message: z.string(), is_approved: z.number() });

// ---- organization structure: departments, branches, sections -------------------------------

export const orgUnit = z.object({ id: z.number(), name: z.string() });
export const orgUnitList = orgList(orgUnit);
export const addOrgUnitRequest = z.object({ name: requiredText(150) });
export const addedResponse = z.object({ message: z.string(), id: z.number() });

// ---- org sub-admins and organization users -------------------------------------------------

export const orgMemberRequest = z.object({
  first_name: requiredText(100),
  last_name: requiredText(100),
  email: emailField(),
  mobile_no: mobileField(),
  branch_id: optionalId(),
  department_id: optionalId(),
  section_id: optionalId(),
});
export const orgMemberCreated = z.object({ message: z.string(), id: z.number(), slug: z.string() });

export const subadminRequestsRequest = z.object({ type: requestType });
export const subadminRequestRow = z.object({
  odid: z.number(),
  user_id: z.number(),
  slug: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  mobile_no: z.string().nullable(),
  oname: z.string(),
  /** line of business of the organization's owner account */
  lob: z.string().nullable(),
  status: z.number(),
  created_at: when,
});
export const subadminRequestsResponse = orgList(subadminRequestRow);
export const subadminDecision = z.object({ odid: idField(), status: decision('status') });

// ---- dashboards ----------------------------------------------------------------------------

export const recentUser = z.object({
  id: z.number(),
  slug: z.string(),
  name: z.string(),
  email: z.string(),
  role: z.enum(ROLES),
  created_at: when,
});
export const orgDashboardResponse = z.object({
  organization: z.object({ id: z.number(), slug: z.string(), name: z.string() }),
  counts: z.object({
    sub_admins: z.number(),
    pending_sub_admins: z.number(),
    /** every account of the organization (its own, sub-admins, members): the people `list` draws from */
    organization_users: z.number(),
    departments: z.number(),
    branches: z.number(),
    sections: z.number(),
  }),
  list: z.array(recentUser),
});
export const ouDashboardResponse = z.object({
  success: z.object({
    organization: z.string().nullable(),
    branch: z.string().nullable(),
    department: z.string().nullable(),
    section: z.string().nullable(),
  }),
});
export const adminDashboardResponse = z.object({
  pending: z.object({
    organizations: z.number(),
    providers: z.number(),
    organization_accounts: z.number(),
    sub_admins: z.number(),
  }),
  totals: z.object({
    organizations: z.number(),
    providers: z.number(),
    users: z.record(z.enum(ROLES), z.number()),
    trainings: z.number(),
  }),
});

// ---- users managed by the caller -----------------------------------------------------------

export const managedUser = z.object({
  id: z.number(),
  slug: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  mobile_no: z.string().nullable(),
  roles: z.array(z.enum(ROLES)),
  status: z.number(),
});
export const managedUserList = orgList(managedUser);
export const managedUsersRequest = listRequest(MANAGED_USER_SORT_KEYS);
export const managedUserPage = pagedList(managedUser);
export const userSlugRequest = z.object({ slug: requiredText(200) });
export const managedUserResponse = z.object({ success: managedUser });
export const updateUserProfileRequest = z.object({
  slug: requiredText(200),
  first_name: requiredText(100),
  last_name: requiredText(100),
  email: emailField(),
  mobile_no: mobileField(),
});
export const updatedResponse = z.object({ message: z.string(), slug: z.string() });

// ---- trainers (admin) ----------------------------------------------------------------------

export const trainerRequest = z.object({
  first_name: requiredText(100),
  last_name: requiredText(100),
  email: emailField(),
  mobile_no: mobileField(),
});
export const trainerRecord = z.object({
  id: z.number(),
  slug: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  mobile_no: z.string().nullable(),
  status: z.number(),
});
export const trainerListRequest = listRequest(MANAGED_USER_SORT_KEYS);
export const trainerList = pagedList(trainerRecord);
export const trainerIdRequest = z.object({ id: idField() });
export const trainerResponse = z.object({ success: trainerRecord });
export const updateTrainerRequest = trainerRequest.extend({ id: idField() });
export const trainerCreated = z.object({ message: z.string(), id: z.number(), slug: z.string() });
