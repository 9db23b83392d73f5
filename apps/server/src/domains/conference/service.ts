import { randomBytes } from 'node:crypto';
import { MSG } from '@trainlab/contract';
import { and, eq } from 'drizzle-orm';
import { trainings, trainingUsers, whiteboards } from '../../db/schema';
import type { Deps } from '../../platform/deps';
import { forbidden, notFound } from '../../platform/errors';
import type { AuthContext } from '../../platform/http/auth-context';
import type { MeetingProvider } from '../../platform/ports/meeting';
import type { Realtime } from '../../platform/ports/realtime';
import { takeCallRoomMember } from '../take-calls/room';
import { staffCanSee, type TrainingRow, trainingForStaff } from '../trainings/access';
import { closeConferenceAttendance } from '../trainings/attendance';

/**
 * Live conference use cases (HTTP side). The room itself is in hub.ts.
 * Who is who in a training's conference:
 * - moderators: the training's managers (its tenant) and its assigned trainers (access.staffCanSee);
 * - learners: enrolled accounts; they join only once the training is started (status 1);
 * - guests: anyone with a guest ticket from /get-meeting-url of a started public training.
 */
export interface ConferenceCtx {
  deps: Deps;
  realtime: Realtime;
  meeting: MeetingProvider;
}

export const GUEST_TICKET_TTL_SECONDS = 600;

export interface GuestTicket {
  name: string;
  trainingId: number;
}

/** `id` as sent by /training/start/{id}: a number, its decimal string, or its base64 form. */
export function decodeTrainingId(id: string | number): number | null {
  if (typeof id === 'number') return id;
  if (/^\d+$/.test(id)) return Number(id);
  const decoded = Buffer.from(id, 'base64').toString('utf8').trim();
  return /^\d{1,9}$/.test(decoded) ? Number(decoded) : null;
}

export async function trainingBy(deps: Deps, by: { slug?: string; id?: string | number }): Promise<TrainingRow> {
  let where: ReturnType<typeof eq>;
  if (by.slug !== undefined) where = eq(trainings.slug, by.slug);
  else {
    const id = decodeTrainingId(by.id!);
    if (id === null) throw notFound();
    where = eq(trainings.id, id);
  }
  const [row] = await deps.db.select().from(trainings).where(where).limit(1);
  if (!row) throw notFound();
  return row;
}

/** The caller's place in the training: moderator and/or enrolment; 404 when neither. */
export async function participantOf(deps: Deps, auth: AuthContext, training: TrainingRow) {
  const moderator = await staffCanSee(deps, auth, training);
  const [enrolment] = await deps.db
    .select()
    .from(trainingUsers)
    .where(and(eq(trainingUsers.training_id, training.id), eq(trainingUsers.user_id, auth.user.id)))
    .limit(1);
  if (!moderator && !enrolment) throw notFound();
  return { moderator, enrolment: enrolment ?? null };
}

const fullName = (u: { first_name: string; last_name: string }) => `${u.first_name} ${u.last_name}`.trim();

/**
 * /get-meeting-link {slug | id, start?}. Starting is done here (documented choice): a moderator's
 * start=1 sets the training's status to 1; learners asking to start get 403.
 */
export async function getMeetingLink(
  ctx: ConferenceCtx,
  auth: AuthContext,
  body: { slug?: string; id?: string | number; start: boolean },
) {
  let training = await trainingBy(ctx.deps, body);
  const { moderator } = await participantOf(ctx.deps, auth, training);
  if (body.start) {
    if (!moderator) throw forbidden();
    if (training.status === 0) {
      const [row] = await ctx.deps.db
        .update(trainings)
        .set({ status: 1, updated_at: new Date() })
        .where(eq(trainings.id, training.id))
        .returning();
      training = row!;
    }
  }
  const join = await ctx.meeting.join(
    { slug: training.slug, room: training.link },
    { id: String(auth.user.id), name: fullName(auth.user), email: auth.user.email, moderator },
    {},
  );
  return { ...join, slug: training.slug, name: training.name, isModerator: moderator ? 1 : 0, status: training.status };
}

/**
 * /get-take-call-meeting-link {id}: the take call's own room (not its training's). Managers of the
 * training's tenant moderate; invited trainers join. No waiting for a start: everyone in it is staff.
 */
export async function getTakeCallMeetingLink(ctx: ConferenceCtx, auth: AuthContext, id: number) {
  const { takeCall, moderator, trainingName } = await takeCallRoomMember(ctx.deps, auth, { id });
  const join = await ctx.meeting.join(
    { slug: takeCall.slug, room: `take-call-${takeCall.slug}` },
    { id: String(auth.user.id), name: fullName(auth.user), email: auth.user.email, moderator },
    {},
  );
  const url = join.provider !== 'jitsi' ? `${ctx.deps.config.PUBLIC_URL}/take-call-meeting/${takeCall.id}` : join.url;
  return { ...join, url, slug: takeCall.slug, name: trainingName, isModerator: moderator ? 1 : 0, status: 1 };
}

/** /end-meeting {slug | id}: closes the caller's open attendance rows of the training. */
export async function endMeeting(deps: Deps, auth: AuthContext, body: { slug?: string; id?: string | number }) {
  const training = await trainingBy(deps, body);
  const { enrolment } = await participantOf(deps, auth, training);
  const closed = enrolment ? await closeConferenceAttendance(deps, enrolment.id) : 0;
  return { message: MSG.meetingEnded, closed };
}

async function publicTraining(deps: Deps, meetingId: string): Promise<TrainingRow> {
  const [row] = await deps.db.select().from(trainings).where(eq(trainings.link, meetingId)).limit(1);
  if (!row) throw notFound();
  if (row.is_public !== 1) throw forbidden(MSG.trainingNotPublic);
  return row;
}

/** /get-meeting-status {meeting_id} (public): 0 not started, 1 started. */
export async function getMeetingStatus(deps: Deps, meetingId: string) {
  const training = await publicTraining(deps, meetingId);
  return { status: training.status === 1 ? 1 : 0 };
}

/** /get-meeting-url {first_name, last_name, meeting_id} (public): url + one-time guest ticket. */
export async function getMeetingUrl(
  ctx: ConferenceCtx,
  body: { first_name: string; last_name: string; meeting_id: string },
) {
  const training = await publicTraining(ctx.deps, body.meeting_id);
  if (training.status !== 1) throw forbidden(MSG.waitingForHost);
  const name = `${body.first_name} ${body.last_name}`;
  const ticket = randomBytes(24).toString('base64url');
  const value: GuestTicket = { name, trainingId: training.id };
  await ctx.realtime.set(`guest:${ticket}`, JSON.stringify(value), GUEST_TICKET_TTL_SECONDS * 1000);
  const join = await ctx.meeting.join(
    { slug: training.slug, room: training.link },
    { id: `guest-${ticket.slice(0, 8)}`, name, moderator: false },
    { guestPage: true },
  );
  // the guest joins the room by the training's slug, which the meeting id alone does not tell
  return { ...join, slug: training.slug, name: training.name, status: 1, ticket, expires_in: GUEST_TICKET_TTL_SECONDS };
}

/** /get-whiteboard {slug}: anyone in the training (moderators draw, others see). */
export async function getWhiteboard(deps: Deps, auth: AuthContext, slug: string) {
  const training = await trainingBy(deps, { slug });
  await participantOf(deps, auth, training);
  const [row] = await deps.db.select().from(whiteboards).where(eq(whiteboards.training_id, training.id)).limit(1);
  return { success: { scene: row?.scene ?? null, updated_at: row?.updated_at.toISOString() ?? null } };
}

export async function storeWhiteboard(deps: Deps, trainingId: number, scene: Record<string, unknown>) {
  await deps.db
    .insert(whiteboards)
    .values({ training_id: trainingId, scene })
    .onConflictDoUpdate({ target: whiteboards.training_id, set: { scene, updated_at: new Date() } });
}

/** /save-whiteboard {slug, scene}: moderators of the training only (others: 404 / 403 by role). */
export async function saveWhiteboard(
  deps: Deps,
  auth: AuthContext,
  body: { slug: string; scene: Record<string, unknown> },
) {
  const training = await trainingForStaff(deps, auth, { slug: body.slug });
  await storeWhiteboard(deps, training.id, body.scene);
  return { message: MSG.whiteboardSaved };
}
