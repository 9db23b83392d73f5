import { type Attendee, createEvent, type ParticipationStatus } from 'ics';
import type { Deps } from '../../platform/deps';
import { enqueue, registerJobHandler } from '../../platform/jobs';

/**
 * Calendar invitations (.ics, RFC 5545 through the `ics` library) for everyone a take call
 * concerns. Mails go through the jobs table so a slow or failing mail server never fails the
 * request; the job carries the finished calendar text.
 */
export const TAKE_CALL_MAIL_JOB = 'take-call-mail';

export interface Person {
  name: string;
  email: string;
}

export interface Invitation {
  /** stable per take call (or training) so calendars update the same event */
  uid: string;
  sequence: number;
  title: string;
  description: string;
  start: Date;
  end: Date;
  url: string;
  organizer: Person;
  attendees: (Person & { partstat?: ParticipationStatus })[];
  /** REQUEST for invitations and updates, REPLY for a trainer's answer */
  method: 'REQUEST' | 'REPLY';
}

/** The .ics text of one event. */
export function buildIcs(inv: Invitation): string {
  const attendees: Attendee[] = inv.attendees.map((a) => ({
    name: a.name,
    email: a.email,
    rsvp: inv.method === 'REQUEST',
    partstat: a.partstat ?? 'NEEDS-ACTION',
    role: 'REQ-PARTICIPANT',
  }));
  const { error, value } = createEvent({
    productId: 'trainlab/take-calls',
    method: inv.method,
    uid: inv.uid,
    sequence: inv.sequence,
    title: inv.title,
    description: inv.description,
    url: inv.url,
    start: inv.start.getTime(),
    startInputType: 'utc',
    startOutputType: 'utc',
    end: inv.end.getTime(),
    endInputType: 'utc',
    endOutputType: 'utc',
    status: 'CONFIRMED',
    organizer: { name: inv.organizer.name, email: inv.organizer.email },
    attendees,
  });
  if (error || !value) throw error ?? new Error('calendar file not built');
  return value;
}

/** Queues one mail per recipient, each with the invitation attached. */
export async function queueInvitations(
  deps: Pick<Deps, 'db'>,
  recipients: Person[],
  subject: string,
  text: string,
  inv: Invitation,
): Promise<void> {
  const ics = buildIcs(inv);
  const seen = new Set<string>();
  for (const r of recipients) {
    const to = r.email.toLowerCase();
    if (seen.has(to)) continue;
    seen.add(to);
    await enqueue(deps, TAKE_CALL_MAIL_JOB, {
      to: r.email,
      subject,
      text: `Hello ${r.name},\n\n${text}`,
      ics,
      method: inv.method,
    });
  }
}

registerJobHandler(TAKE_CALL_MAIL_JOB, async (deps, payload) => {
  const { to, subject, text, ics, method } = payload as {
    to: string;
    subject: string;
    text: string;
    ics: string;
    method?: string;
  };
  await deps.mail.send({
    to,
    subject,
    text,
    attachments: [
      {
        filename: 'invite.ics',
        content: Buffer.from(ics, 'utf8'),
        contentType: `text/calendar; method=${method ?? 'REQUEST'}`,
      },
    ],
  });
});
