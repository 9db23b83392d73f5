import {
  type addTrainingUserRequest,
  IMPORT_TEMPLATES,
  MSG,
  trainingUserImportRow,
  type trainingUsersRequest,
  USER_TYPES,
} from '@trainlab/contract';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { trainings, trainingUsers, users } from '../../db/schema';
import type { Db } from '../../platform/db/client';
import { chunksOf } from '../../platform/db/insert-chunked';
import type { Deps } from '../../platform/deps';
import { invalidField, notFound, ValidationError } from '../../platform/errors';
import { readUpload, streamImport } from '../../platform/excel';
import type { AuthContext } from '../../platform/http/auth-context';
import { orderFor, pageWindow, searchWhere, toPage, totalOver } from '../../platform/http/paging';
import { enqueue, registerJobHandler } from '../../platform/jobs';
import { makeSlug } from '../../platform/slug';
import {
  isLearner,
  managerTenant,
  recordTenant,
  TENANT_LEARNER_ROLE,
  type Tenant,
  tenantWhere,
} from '../../platform/tenancy';
import { issuePasswordLink } from '../accounts-mail';
import { type TrainingRow, trainingForManager } from './access';

interface Person {
  first_name: string;
  last_name: string;
  email: string;
  mobile_no: string;
}

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
type UserRow = typeof users.$inferSelect;

/** Outcome of enrolling one person: mails are sent after the transaction commits. */
interface Enrolled {
  enrolmentId: number;
  user: Pick<UserRow, 'id' | 'email' | 'first_name'>;
  created: boolean;
}

const fullError = (limit: number) => `${MSG.trainingFull} (${limit})`;

/** The training row, locked until the transaction ends, so concurrent enrolments respect the limit. */
async function lockTraining(tx: Tx, id: number) {
  await tx.select({ id: trainings.id }).from(trainings).where(eq(trainings.id, id)).for('update');
  const [n] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(trainingUsers)
    .where(eq(trainingUsers.training_id, id));
  return Number(n!.n);
}

const LOOKUP_CHUNK = 10_000;

async function accountsByEmail(tx: Tx, emails: string[]) {
  const found = new Map<string, UserRow>();
  // in slices: a raised row limit must not pass PostgreSQL's 65,535 bind parameters in one statement
  for (const slice of chunksOf(emails, LOOKUP_CHUNK)) {
    const rows = await tx
      .select()
      .from(users)
      .where(inArray(sql`lower(${users.email})`, slice));
    for (const u of rows) found.set(u.email.toLowerCase(), u);
  }
  return found;
}

/** A new learner account of a tenant, without a password (set through the mailed link). */
export function newLearner(tenant: Tenant, p: Pick<Person, 'first_name' | 'last_name' | 'email' | 'mobile_no'>) {
  const provider = tenant.kind === 'provider';
  return {
    slug: makeSlug(p.first_name, p.last_name),
    first_name: p.first_name,
    last_name: p.last_name,
    email: p.email,
    mobile_no: p.mobile_no,
    password_hash: null,
    roles: [TENANT_LEARNER_ROLE[tenant.kind]],
    user_type: provider ? USER_TYPES.provider_user : USER_TYPES.organization_user,
    status: 1,
    is_approved: 1,
    provider_id: provider ? tenant.ownerId : null,
    organization_id: provider ? null : tenant.organizationId,
  };
}

async function notify(deps: Deps, training: TrainingRow, done: Pick<Enrolled, 'user' | 'created'>[]) {
  const when = `${training.start_date.toISOString().slice(0, 10)} to ${training.end_date.toISOString().slice(0, 10)}`;
  for (const e of done) {
    if (e.created) {
      await issuePasswordLink(
        deps,
        e.user,
        `You are enrolled in the training ${training.name}`,
        `You have been enrolled in the training "${training.name}" (${when}). A TrainLab account was created for you.`,
      );
    } else {
      await deps.mail.send({
        to: e.user.email,
        subject: `You are enrolled in the training ${training.name}`,
        text:
          `Hello ${e.user.first_name},\n\nYou have been enrolled in the training "${training.name}" (${when}).\n\n` +
          `Sign in at ${deps.config.PUBLIC_URL}/login and open My Trainings.\n`,
      });
    }
  }
}

/**
 * An import's enrolment e-mails go out from background jobs of ENROLMENT_MAIL_BATCH people each:
 * ten thousand mails (each with a set-password link for a new account) sent inside the request
 * would hold it open for over a minute, past any proxy's timeout.
 */
export const ENROLMENT_MAIL_JOB = 'trainings.enrolment-mail';
const ENROLMENT_MAIL_BATCH = 100;

async function queueNotices(deps: Pick<Deps, 'db'>, training: TrainingRow, done: Enrolled[]) {
  for (const slice of chunksOf(done, ENROLMENT_MAIL_BATCH)) {
    await enqueue(deps, ENROLMENT_MAIL_JOB, {
      training_id: training.id,
      people: slice.map((e) => ({ id: e.user.id, created: e.created })),
    });
  }
}

registerJobHandler(ENROLMENT_MAIL_JOB, async (deps, payload) => {
  const [training] = await deps.db
    .select()
    .from(trainings)
    .where(eq(trainings.id, Number(payload.training_id)));
  if (!training) return; // deleted meanwhile
  const people = payload.people as { id: number; created: boolean }[];
  const found = await deps.db
    .select({ id: users.id, email: users.email, first_name: users.first_name })
    .from(users)
    .where(
      inArray(
        users.id,
        people.map((p) => p.id),
      ),
    );
  const byId = new Map(found.map((u) => [u.id, u]));
  await notify(
    deps,
    training,
    people.flatMap((p) => {
      const user = byId.get(p.id);
      return user ? [{ user, created: p.created }] : [];
    }),
  );
});

/**
 * Why a person cannot be enrolled: listed twice (`seen` holds the e-mails met so far, in this call
 * or in the earlier batches of an import), already enrolled, or an account that is not a learner
 * (provider, trainer, admin...). Reported through `problem`, by index. Answers the people's
 * existing accounts, by lower-cased e-mail.
 */
async function check(
  tx: Tx,
  training: TrainingRow,
  people: Person[],
  problem: (index: number, field: string, message: string) => void,
  seen = new Set<string>(),
): Promise<Map<string, UserRow>> {
  const existing = await accountsByEmail(
    tx,
    people.map((p) => p.email.toLowerCase()),
  );
  const already = new Set<number>();
  for (const slice of chunksOf(
    [...existing.values()].map((u) => u.id),
    LOOKUP_CHUNK,
  )) {
    const rows = await tx
      .select({ user_id: trainingUsers.user_id })
      .from(trainingUsers)
      .where(and(eq(trainingUsers.training_id, training.id), inArray(trainingUsers.user_id, slice)));
    for (const r of rows) already.add(r.user_id);
  }
  people.forEach((p, i) => {
    const key = p.email.toLowerCase();
    const account = existing.get(key);
    if (seen.has(key)) problem(i, 'email', 'The email appears more than once in the file.');
    else if (account && already.has(account.id)) problem(i, 'email', MSG.trainingUserExists);
    else if (account && !isLearner(account.roles)) problem(i, 'email', MSG.trainingUserNotLearner);
    seen.add(key);
  });
  return existing;
}

/** Creates the missing accounts and the enrolments (inside the caller's transaction). */
async function write(
  tx: Tx,
  training: TrainingRow,
  people: Person[],
  existing: Map<string, UserRow>,
): Promise<Enrolled[]> {
  // a training found for its manager names its tenant
  const tenant = recordTenant(training)!;
  const fresh = people.filter((p) => !existing.has(p.email.toLowerCase()));
  // in slices: one INSERT of 10,000 accounts would bind over 100,000 parameters (PostgreSQL allows 65,535)
  const created: { id: number; email: string; first_name: string }[] = [];
  for (const slice of chunksOf(fresh)) {
    created.push(
      ...(await tx
        .insert(users)
        .values(slice.map((p) => newLearner(tenant, p)))
        .returning({ id: users.id, email: users.email, first_name: users.first_name })),
    );
  }
  const accounts = [
    ...[...existing.values()].map((u) => ({
      user: { id: u.id, email: u.email, first_name: u.first_name },
      created: false,
    })),
    ...created.map((u) => ({ user: u, created: true })),
  ];
  const enrolments: { id: number; user_id: number }[] = [];
  for (const slice of chunksOf(accounts)) {
    enrolments.push(
      ...(await tx
        .insert(trainingUsers)
        .values(slice.map((a) => ({ training_id: training.id, user_id: a.user.id })))
        .returning({ id: trainingUsers.id, user_id: trainingUsers.user_id })),
    );
  }
  const idOf = new Map(enrolments.map((e) => [e.user_id, e.id]));
  return accounts.map((a) => ({ ...a, enrolmentId: idOf.get(a.user.id)! }));
}

const isUniqueViolation = (e: unknown) => {
  const err = e as { code?: string; cause?: { code?: string } };
  return err?.code === '23505' || err?.cause?.code === '23505';
};

/** /lp/add-training-user: one learner. */
export async function addTrainingUser(deps: Deps, auth: AuthContext, body: z.output<typeof addTrainingUserRequest>) {
  const training = await trainingForManager(deps, auth, body.slug);
  let done: Enrolled[];
  try {
    done = await deps.db.transaction(async (tx) => {
      const enrolled = await lockTraining(tx, training.id);
      const errors: Record<string, string[]> = {};
      const existing = await check(tx, training, [body], (_i, field, message) => {
        errors[field] = [message];
      });
      if (Object.keys(errors).length) throw new ValidationError(errors);
      if (enrolled + 1 > training.number_of_participants) {
        throw invalidField('number_of_participants', fullError(training.number_of_participants));
      }
      return write(tx, training, [body], existing);
    });
  } catch (e) {
    // two managers adding the same person at once, or a new e-mail taken meanwhile
    if (isUniqueViolation(e)) throw invalidField('email', MSG.trainingUserExists);
    throw e;
  }
  await notify(deps, training, done);
  const [one] = done;
  return { message: MSG.trainingUserAdded, id: one!.enrolmentId, user_id: one!.user.id };
}

/**
 * /lp/import-training-user: learners from Excel, all rows or none. The rows are checked and written
 * batch by batch in one transaction that holds the training's row lock; e-mails repeated far apart
 * in the file are caught by a Set of the e-mails met so far (100,000 short strings are a few MB),
 * accounts and enrolments already stored by a lookup per batch. The enrolment e-mails are queued
 * in the same transaction, so they go out only if the import is committed.
 */
export async function importTrainingUsers(deps: Deps, auth: AuthContext, request: FastifyRequest) {
  const upload = await readUpload(request, deps.config.IMPORT_MAX_FILE_BYTES);
  const slug = upload.fields.slug?.trim();
  if (!slug) throw invalidField('slug', 'The slug field is required.');
  const training = await trainingForManager(deps, auth, slug);
  const limit = training.number_of_participants;
  try {
    const count = await streamImport(
      {
        maxRows: deps.config.IMPORT_MAX_ROWS,
        file: upload.file,
        filename: upload.filename,
        schema: trainingUserImportRow,
        columns: IMPORT_TEMPLATES['training-user'].columns,
      },
      (rows) =>
        deps.db.transaction(async (tx) => {
          const enrolled = await lockTraining(tx, training.id);
          const seen = new Set<string>();
          for await (const batch of rows) {
            const people: Person[] = batch.map(({ data }) => ({
              first_name: data.firstname,
              last_name: data.lastname,
              email: data.email,
              mobile_no: data.mobileno,
            }));
            const existing = await check(
              tx,
              training,
              people,
              (i, attribute, message) => rows.reject(batch[i]!.row, attribute, message),
              seen,
            );
            // past the training's limit nothing more is written, but the rows are still checked
            if (rows.failed || enrolled + rows.count > limit) continue;
            await queueNotices({ db: tx }, training, await write(tx, training, people, existing));
          }
          if (enrolled + rows.count > limit) {
            throw new ValidationError({
              file: [`${fullError(limit)}: ${enrolled} enrolled, the file adds ${rows.count}.`],
            });
          }
          return rows.count;
        }),
    );
    return { message: MSG.recordAdded, count };
  } catch (e) {
    if (isUniqueViolation(e)) throw new ValidationError({ file: [MSG.trainingUserExists] });
    throw e;
  }
}

/** /lp/get-training-users: enrolments with join status and attended minutes. */
export async function trainingUserList(deps: Deps, auth: AuthContext, q: z.output<typeof trainingUsersRequest>) {
  const training = await trainingForManager(deps, auth, q.slug);
  const window = pageWindow(q);
  const minutes = sql<number>`(select coalesce(sum(ta.minutes), 0)::int from training_attendances ta where ta.training_user_id = "training_users"."id")`;
  const where = and(
    eq(trainingUsers.training_id, training.id),
    searchWhere(q.search, [users.first_name, users.last_name, users.email]),
  );
  const rows = await deps.db
    .select({
      id: trainingUsers.id,
      training_id: trainingUsers.training_id,
      user_id: trainingUsers.user_id,
      first_name: users.first_name,
      last_name: users.last_name,
      email: users.email,
      mobile_no: users.mobile_no,
      send_email_certificate: trainingUsers.send_email_certificate,
      is_download_certificate: trainingUsers.is_download_certificate,
      joins: sql<number>`(select count(*)::int from training_attendances ta where ta.training_user_id = "training_users"."id")`,
      min: minutes,
      total: totalOver(),
    })
    .from(trainingUsers)
    .innerJoin(users, eq(users.id, trainingUsers.user_id))
    .where(where)
    .orderBy(
      ...orderFor(
        q.sort,
        { first_name: users.first_name, last_name: users.last_name, email: users.email, min: minutes },
        [],
        trainingUsers.id,
      ),
    )
    .limit(window.limit)
    .offset(window.offset);
  return toPage(
    rows,
    window,
    ({ joins, total: _total, ...r }) => ({
      ...r,
      user_name: r.email,
      name: `${r.first_name} ${r.last_name}`,
      start_date: training.start_date.toISOString(),
      end_date: training.end_date.toISOString(),
      join: Number(joins) > 0 ? 1 : 0,
      min: Number(r.min),
    }),
    async () => {
      const [n] = await deps.db
        .select({ n: sql<number>`count(*)::int` })
        .from(trainingUsers)
        .innerJoin(users, eq(users.id, trainingUsers.user_id))
        .where(where);
      return Number(n?.n ?? 0);
    },
  );
}

/** /lpu/download-certificate-access: toggles one enrolment's download right (tenant-checked). */
export async function toggleCertificateAccess(deps: Deps, auth: AuthContext, id: number) {
  const [row] = await deps.db
    .select({ id: trainingUsers.id })
    .from(trainingUsers)
    .innerJoin(trainings, eq(trainings.id, trainingUsers.training_id))
    .where(and(eq(trainingUsers.id, id), tenantWhere(trainings, managerTenant(auth))));
  if (!row) throw notFound();
  const [updated] = await deps.db
    .update(trainingUsers)
    .set({ is_download_certificate: sql`1 - ${trainingUsers.is_download_certificate}` })
    .where(eq(trainingUsers.id, row.id))
    .returning({ v: trainingUsers.is_download_certificate });
  const v = updated!.v;
  return { message: v === 1 ? MSG.certificateAccessYes : MSG.certificateAccessNo, is_download_certificate: v };
}
