import { randomBytes } from 'node:crypto';
import { inflateSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import { trainingAttendances, trainings, trainingUsers, users } from '../src/db/schema';
import type { TestApp } from './helpers';

/** Rows of the trainings domain, written directly: these tests only need them to exist. */
export async function createTraining(t: TestApp, opts: Partial<typeof trainings.$inferInsert> = {}) {
  const key = randomBytes(4).toString('hex');
  const [row] = await t.deps.db
    .insert(trainings)
    .values({
      slug: `training-${key}`,
      link: `meet-${key}`,
      name: `Python Basics ${key}`,
      start_date: new Date('2026-04-18T09:30:00Z'),
      end_date: new Date('2026-05-06T17:00:00Z'),
      total_training_day: 2,
      number_of_participants: 10,
      is_public: 1,
      ...opts,
    })
    .returning();
  return row!;
}

export async function enrol(
  t: TestApp,
  trainingId: number,
  userId: number,
  opts: Partial<typeof trainingUsers.$inferInsert> = {},
) {
  const [row] = await t.deps.db
    .insert(trainingUsers)
    .values({ training_id: trainingId, user_id: userId, ...opts })
    .returning();
  return row!;
}

export async function attend(t: TestApp, enrolment: typeof trainingUsers.$inferSelect, minutes: number) {
  await t.deps.db.insert(trainingAttendances).values({
    training_id: enrolment.training_id,
    training_user_id: enrolment.id,
    user_id: enrolment.user_id,
    joined_at: new Date(Date.now() - minutes * 60_000),
    left_at: new Date(),
    minutes,
  });
}

export const userById = async (t: TestApp, id: number) =>
  (await t.deps.db.select().from(users).where(eq(users.id, id)))[0]!;

/**
 * The text drawn on a pdf-lib PDF: inflate each content stream and decode its hex strings
 * (standard fonts write WinAnsi bytes as `<...> Tj`).
 */
export function pdfText(bytes: Uint8Array): string {
  const raw = Buffer.from(bytes);
  const latin = raw.toString('latin1');
  const parts: string[] = [];
  const re = /stream\r?\n/g;
  let m: RegExpExecArray | null;
  // biome-ignore lint/suspicious/noAssignInExpressions: the classic exec loop
  while ((m = re.exec(latin))) {
    const start = m.index + m[0].length;
    const end = latin.indexOf('endstream', start);
    if (end < 0) break;
    let content: string;
    try {
      content = inflateSync(raw.subarray(start, end)).toString('latin1');
    } catch {
      content = latin.slice(start, end);
    }
    for (const hex of content.matchAll(/<([0-9A-Fa-f]*)>\s*Tj/g))
      parts.push(Buffer.from(hex[1]!, 'hex').toString('latin1'));
    for (const lit of content.matchAll(/\(((?:\\.|[^\\)])*)\)\s*Tj/g)) parts.push(lit[1]!);
    re.lastIndex = end;
  }
  return parts.join('\n');
}
