import { API } from '@trainlab/contract';
import { desc } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { outbox } from '../../db/schema';
import type { Deps } from '../../platform/deps';
import { notFound } from '../../platform/errors';
import { devMailboxOn } from '../../platform/exposure';
import { defineCall } from '../../platform/http/define-call';

/**
 * The dev mailbox reads the outbox (every reset link): never in production, and beyond loopback only
 * when DEV_MAILBOX=true says so (platform/exposure.ts).
 */
export function devRoutes(app: FastifyInstance, deps: Deps): void {
  defineCall(app, deps, API.devMailbox, async () => {
    if (!devMailboxOn(deps.config)) throw notFound();
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
