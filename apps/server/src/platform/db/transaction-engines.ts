import { NodePgSession, NodePgTransaction } from 'drizzle-orm/node-postgres';
import { PgliteSession, PgliteTransaction } from 'drizzle-orm/pglite';
import type pg from 'pg';
import type { LazyTransactionClient, OpenTransaction, TransactionEngine } from './ambient-transaction';
import type { Db } from './db-type';
import type { GuardedPglite } from './guarded-pglite';

// What each engine lends the ambient transaction (ambient-transaction.ts): a connection held from the
// first write to the end, and drizzle transaction objects whose statements go to it.

/** The parts of a drizzle database a transaction object of the same schema is built from. */
interface DrizzleInternals {
  dialect: ConstructorParameters<typeof NodePgTransaction>[0];
  session: { options: ConstructorParameters<typeof NodePgSession>[3] };
  _: { schema: unknown; fullSchema: unknown; tableNamesMap: unknown };
}
const internalsOf = (db: Db) => {
  const d = db as unknown as DrizzleInternals;
  const schemaConfig = { schema: d._.schema, fullSchema: d._.fullSchema, tableNamesMap: d._.tableNamesMap } as never;
  return { dialect: d.dialect, options: d.session.options, schemaConfig };
};

/** The ambient transactions of a PostgreSQL pool: a pooled connection from the first write to the end. */
export function poolTransactions(pool: pg.Pool, db: Db): TransactionEngine {
  const { dialect, options, schemaConfig } = internalsOf(db);
  const send = (target: pg.Pool | pg.PoolClient, args: unknown[]) =>
    (target.query as (...a: unknown[]) => Promise<unknown>)(...args);
  return {
    outside: (args) => send(pool, args),
    begin: async (): Promise<OpenTransaction> => {
      const client = await pool.connect();
      try {
        await client.query('begin');
      } catch (e) {
        client.release(e as Error);
        throw e;
      }
      return {
        query: (args) => send(client, args),
        end: async (commit) => {
          try {
            await client.query(commit ? 'commit' : 'rollback');
            client.release();
          } catch (e) {
            // a connection that could not end its transaction is closed, never reused
            client.release(e as Error);
            if (commit) throw e;
          }
        },
      };
    },
    transactionOver: (client: LazyTransactionClient) =>
      new NodePgTransaction(
        dialect,
        new NodePgSession(client as never, dialect, schemaConfig, options),
        schemaConfig,
      ) as unknown as Db,
  };
}

/** The ambient transactions of the embedded database: PGlite's own transaction, held until the end. */
export function pgliteTransactions(client: GuardedPglite, db: Db): TransactionEngine {
  const { dialect, options, schemaConfig } = internalsOf(db);
  type Query = (...a: unknown[]) => Promise<unknown>;
  return {
    outside: (args) => (client.query as Query)(...args),
    begin: () =>
      new Promise<OpenTransaction>((opened, failed) => {
        let settle!: { commit: () => void; rollback: (reason: unknown) => void };
        const finished = new Promise<void>((commit, rollback) => {
          settle = { commit, rollback };
        });
        const done = client.transaction(async (tx) => {
          opened({
            query: (args) => (tx.query as Query)(...args),
            end: async (commit, reason) => {
              if (commit) settle.commit();
              else settle.rollback(reason ?? new Error('rolled back'));
              try {
                await done;
              } catch (e) {
                if (commit) throw e;
              }
            },
          });
          await finished;
        });
        // a transaction that could not begin fails the statement that wanted it
        done.catch(failed);
      }),
    transactionOver: (lazy: LazyTransactionClient) =>
      new PgliteTransaction(
        dialect as never,
        new PgliteSession(lazy as never, dialect as never, schemaConfig, options as never),
        schemaConfig,
      ) as unknown as Db,
  };
}
