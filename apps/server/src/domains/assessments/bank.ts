import { createHash } from 'node:crypto';
import {
  type addQuestionRequest,
  IMPORT_TEMPLATES,
  MSG,
  type QUESTION_SORT_KEYS,
  type questionBankRequest,
  questionImportRow,
} from '@trainlab/contract';
import { and, asc, desc, eq, getTableColumns, inArray, type SQL, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { assessmentAnswers, assessmentAttempts, assessmentQuestions, questions } from '../../db/schema';
import { insertChunked } from '../../platform/db/insert-chunked';
import type { Deps } from '../../platform/deps';
import { AppError, invalidField, notFound } from '../../platform/errors';
import { readUpload, streamImport } from '../../platform/excel';
import type { AuthContext } from '../../platform/http/auth-context';
import { cappedCount, countWhere, orderFor, pageWindow, searchWhere, toCountedPage } from '../../platform/http/paging';
import { managerTenant, tenantColumns } from '../../platform/tenancy';

/** The shared bank, kept by the admin and visible to every tenant. */
export const SHARED_BANK = 'shared';
export const BANK_MSG = {
  duplicate: 'The question is already in the bank.',
  duplicateInFile: 'The question is repeated in the file (row {row}).',
  inUse: 'The question is used in an assessment and cannot be deleted.',
} as const;

export interface Bank {
  key: string;
  owner_user_id: number | null;
  organization_id: number | null;
}

/** The bank the caller keeps: the admin's is the shared one, a manager's that of the tenant. */
export function callerBank(auth: AuthContext): Bank {
  if (auth.user.roles.includes('admin')) return { key: SHARED_BANK, owner_user_id: null, organization_id: null };
  const tenant = managerTenant(auth);
  const key = tenant.kind === 'provider' ? `p:${tenant.ownerId}` : `o:${tenant.organizationId}`;
  return { key, ...tenantColumns(tenant) };
}

/** The banks a caller reads from: its own plus the shared one. */
export const visibleBanks = (bank: Bank): SQL => inArray(questions.bank, [...new Set([bank.key, SHARED_BANK])]);

export const dedupeKey = (language: string, question: string) =>
  `${language.trim().toLowerCase()}|${question.trim().replace(/\s+/g, ' ').toLowerCase()}`;

type QuestionRow = typeof questions.$inferSelect;
export const toQuestionItem = (r: QuestionRow) => ({
  id: r.id,
  language_identified: r.language_identified,
  question_category: r.question_category,
  question_type: r.question_type,
  question: r.question,
  option1: r.option1,
  option2: r.option2,
  option3: r.option3,
  option4: r.option4,
  correct_option: r.correct_option,
  level: r.level,
  shared: r.bank === SHARED_BANK ? 1 : 0,
});

type Sort = (typeof QUESTION_SORT_KEYS)[number];

/** /get-question-bank: one page of the caller's bank and the shared bank. */
export async function questionBank(deps: Deps, auth: AuthContext, q: z.output<typeof questionBankRequest>) {
  const bank = callerBank(auth);
  const window = pageWindow(q);
  const filters = [
    q.language_identified ? sql`lower(${questions.language_identified}) = lower(${q.language_identified})` : undefined,
    q.level ? eq(questions.level, q.level) : undefined,
    searchWhere(q.search, [questions.question, questions.question_category, questions.language_identified]),
  ];
  const filter = and(visibleBanks(bank), ...filters);
  const rows = q.sort || bank.key === SHARED_BANK ? await sortedPage() : await newestOfTwoBanks();
  return toCountedPage(rows, window, toQuestionItem, (limit) => countWhere(deps.db, questions, filter, limit));

  function sortedPage() {
    return deps.db
      .select({ ...getTableColumns(questions), capped_total: cappedCount(questions, filter, window) })
      .from(questions)
      .where(filter)
      .orderBy(
        ...orderFor(
          q.sort as Sort | `-${Sort}` | undefined,
          {
            question: questions.question,
            language_identified: questions.language_identified,
            level: questions.level,
            question_category: questions.question_category,
          },
          [sql`${questions.id} desc`],
          questions.id,
        ),
      )
      .limit(window.limit)
      .offset(window.offset);
  }

  /**
   * The default order (newest first) over two banks: `bank in (own, shared) order by id desc` walks
   * the whole table backwards past every other tenant's newer questions. Each bank read newest
   * first off (bank, id), as far as the page reaches, then merged: the page never reads more than
   * offset + per_page rows of each (decision 0047).
   */
  function newestOfTwoBanks() {
    const reach = window.offset + window.limit;
    const newest = (key: string) =>
      deps.db
        .select(getTableColumns(questions))
        .from(questions)
        .where(and(eq(questions.bank, key), ...filters))
        .orderBy(desc(questions.id))
        .limit(reach);
    return newest(bank.key)
      .unionAll(newest(SHARED_BANK))
      .orderBy(sql`"id" desc`)
      .limit(window.limit)
      .offset(window.offset);
  }
}

type QuestionInput = z.output<typeof addQuestionRequest>;
const columnsOf = (data: QuestionInput) => ({
  language_identified: data.language_identified,
  question_category: data.question_category,
  question_type: data.question_type,
  question: data.question,
  option1: data.option1,
  option2: data.option2,
  option3: data.option3,
  option4: data.option4,
  correct_option: data.correct_option,
  level: data.level,
  dedupe_key: dedupeKey(data.language_identified, data.question),
});

async function assertNotDuplicate(deps: Deps, bank: Bank, key: string, exceptId?: number) {
  const [row] = await deps.db
    .select({ id: questions.id })
    .from(questions)
    .where(and(eq(questions.bank, bank.key), eq(questions.dedupe_key, key)))
    .limit(1);
  if (row && row.id !== exceptId) throw invalidField('question', BANK_MSG.duplicate);
}

/** /add-question */
export async function addQuestion(deps: Deps, auth: AuthContext, data: QuestionInput) {
  const bank = callerBank(auth);
  const values = columnsOf(data);
  await assertNotDuplicate(deps, bank, values.dedupe_key);
  const [row] = await deps.db
    .insert(questions)
    .values({ ...values, bank: bank.key, owner_user_id: bank.owner_user_id, organization_id: bank.organization_id })
    .returning();
  return { message: MSG.recordAdded, success: toQuestionItem(row!) };
}

/** A question of the caller's own bank (a shared one is read-only for tenants); 404 otherwise. */
async function ownQuestion(deps: Deps, auth: AuthContext, id: number) {
  const bank = callerBank(auth);
  const [row] = await deps.db
    .select()
    .from(questions)
    .where(and(eq(questions.id, id), eq(questions.bank, bank.key)))
    .limit(1);
  if (!row) throw notFound();
  return { row, bank };
}

/** /update-question */
export async function updateQuestion(deps: Deps, auth: AuthContext, data: QuestionInput & { id: number }) {
  const { row, bank } = await ownQuestion(deps, auth, data.id);
  const values = columnsOf(data);
  await assertNotDuplicate(deps, bank, values.dedupe_key, row.id);
  const [updated] = await deps.db.update(questions).set(values).where(eq(questions.id, row.id)).returning();
  return { message: MSG.recordUpdated, success: toQuestionItem(updated!) };
}

/** /delete-question: refused while any test (picked or drawn) or answer uses it. */
export async function deleteQuestion(deps: Deps, auth: AuthContext, id: number) {
  const { row } = await ownQuestion(deps, auth, id);
  const [used] = await deps.db
    .select({
      n: sql<number>`(select count(*)::int from ${assessmentQuestions} where ${assessmentQuestions.question_id} = ${row.id})
        + (select count(*)::int from ${assessmentAttempts} where ${row.id} = any(${assessmentAttempts.question_ids}))
        + (select count(*)::int from ${assessmentAnswers} where ${assessmentAnswers.question_id} = ${row.id})`,
    })
    .from(sql`(select 1) as one`);
  if (Number(used?.n ?? 0) > 0) throw new AppError(422, BANK_MSG.inUse, { id: [BANK_MSG.inUse] });
  await deps.db.delete(questions).where(eq(questions.id, row.id));
  return { message: MSG.recordDeleted };
}

/** /get-language-identified */
export async function languages(deps: Deps, auth: AuthContext) {
  const rows = await deps.db
    .selectDistinct({ language: questions.language_identified })
    .from(questions)
    .where(visibleBanks(callerBank(auth)))
    .orderBy(asc(questions.language_identified));
  return { list: rows.map((r) => r.language) };
}

/**
 * In-file duplicates of a question bank import: the first row of every question key read so far.
 * Keys are kept as 132 bits of their SHA-256 (22 characters), not the question's text, so 100,000
 * rows cost a few megabytes whatever the questions' length (a false match among 100,000 keys: about
 * one chance in 10^29).
 */
function firstRows() {
  const rows = new Map<string, number>();
  const digest = (key: string) => createHash('sha256').update(key).digest('base64').slice(0, 22);
  return {
    /** the row where key was first seen, or undefined (and then this row is remembered as its first) */
    seen(key: string, row: number): number | undefined {
      const d = digest(key);
      const first = rows.get(d);
      if (first === undefined) rows.set(d, row);
      return first;
    },
  };
}

/**
 * /upload-question-bank: the shared import pipeline validates every row; a question already in the
 * bank or repeated in the file (however far apart the rows) is a row error too. The rows are checked
 * and written batch by batch in one transaction: all rows or none.
 */
export async function uploadBank(deps: Deps, auth: AuthContext, request: FastifyRequest) {
  const bank = callerBank(auth);
  const upload = await readUpload(request, deps.config.IMPORT_MAX_FILE_BYTES);
  const inFile = firstRows();
  const count = await streamImport(
    {
      maxRows: deps.config.IMPORT_MAX_ROWS,
      file: upload.file,
      filename: upload.filename,
      schema: questionImportRow,
      columns: IMPORT_TEMPLATES['question-bank'].columns,
    },
    (rows) =>
      deps.db.transaction(async (tx) => {
        for await (const batch of rows) {
          const fresh = new Map<string, { row: number; values: ReturnType<typeof columnsOf> }>();
          for (const { row, data } of batch) {
            const values = columnsOf(data);
            const first = inFile.seen(values.dedupe_key, row);
            if (first === undefined) fresh.set(values.dedupe_key, { row, values });
            else rows.reject(row, 'question', BANK_MSG.duplicateInFile.replace('{row}', String(first)));
          }
          // already in the bank: only this batch's new keys are looked up (earlier batches' keys,
          // written by this import, are in-file repeats and were answered above)
          if (fresh.size > 0) {
            const existing = await tx
              .select({ key: questions.dedupe_key })
              .from(questions)
              .where(and(eq(questions.bank, bank.key), inArray(questions.dedupe_key, [...fresh.keys()])));
            for (const { key } of existing) rows.reject(fresh.get(key)!.row, 'question', BANK_MSG.duplicate);
          }
          if (rows.failed) continue;
          const inserts = [...fresh.values()].map(({ values }) => ({
            ...values,
            bank: bank.key,
            owner_user_id: bank.owner_user_id,
            organization_id: bank.organization_id,
          }));
          await insertChunked(tx, questions, inserts);
        }
        return rows.count;
      }),
  );
  return { message: MSG.recordAdded, count };
}
