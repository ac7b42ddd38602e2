import { eq, lt } from 'drizzle-orm';
import type { Database } from './db/database.js';
import { sessions } from './db/schema.js';

/** express-session's stored sessions. */
export class SessionRepository {
  constructor(private readonly db: Database) {}

  /** The session's data, or null when there is none or it expired. */
  async get(sid: string, now = new Date()): Promise<Record<string, unknown> | null> {
    const [row] = await this.db.select().from(sessions).where(eq(sessions.sid, sid));
    return row && row.expiresAt > now ? row.sess : null;
  }

  async set(sid: string, sess: Record<string, unknown>, expiresAt: Date): Promise<void> {
    await this.db.insert(sessions).values({ sid, sess, expiresAt }).onConflictDoUpdate({ target: sessions.sid, set: { sess, expiresAt } });
  }

  async destroy(sid: string): Promise<void> {
    await this.db.delete(sessions).where(eq(sessions.sid, sid));
  }

  async touch(sid: string, expiresAt: Date): Promise<void> {
    await this.db.update(sessions).set({ expiresAt }).where(eq(sessions.sid, sid));
  }

  async pruneExpired(now = new Date()): Promise<void> {
    await this.db.delete(sessions).where(lt(sessions.expiresAt, now));
  }
}
