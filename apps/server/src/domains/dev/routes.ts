import { API } from '@trainlab/contract';
import { desc } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { outbox } from '../../db/schema';
import type { Deps } from '../../platform/deps';
import { notFound } from '../../platform/errors';
import { defineCall } from '../../platform/http/define-call';

/** The dev mailbox reads the outbox; it does not exist in production. */
export function devRoutes(app: FastifyInstance, deps: Deps): void {
  defineCall(app, deps, API.devMailbox, async () => {
    if (deps.config.NODE_ENV === 'production') throw notFound();
    const rows = await deps.db.select().from(outbox).orderBy(desc(outbox.id)).limit(200);
    return {
      list: rows.map((r) => ({
        id: r.id,
        channel: r.channel,
        to: r.to,
        subject: r.subject,
        text: r.text,
        created_at: r.created_at.toISOString(),
      })),
    };
  });
}
