import { randomUUID } from 'node:crypto';
import type { QuotaOwner, SessionRepository } from '@receipts/infra';
import type { RequestHandler } from 'express';
import session, { type SessionData, Store } from 'express-session';

declare module 'express-session' {
  interface SessionData {
    /** Identifies an anonymous visitor's uploads until they sign in. */
    anonId?: string;
    userId?: string;
  }
}

const SESSION_TTL_MS = 30 * 24 * 3600 * 1000;

/** express-session's store in PostgreSQL (or PGlite). */
export class DatabaseSessionStore extends Store {
  constructor(private readonly sessions: SessionRepository) {
    super();
  }

  private expiry(sess: SessionData): Date {
    const expires = sess.cookie?.expires;
    return expires ? new Date(expires) : new Date(Date.now() + SESSION_TTL_MS);
  }

  override get(sid: string, callback: (err: unknown, session?: SessionData | null) => void): void {
    this.sessions.get(sid).then((sess) => callback(null, sess as SessionData | null), callback);
  }

  override set(sid: string, sess: SessionData, callback?: (err?: unknown) => void): void {
    this.sessions.set(sid, sess as unknown as Record<string, unknown>, this.expiry(sess)).then(() => callback?.(), callback);
  }

  override destroy(sid: string, callback?: (err?: unknown) => void): void {
    this.sessions.destroy(sid).then(() => callback?.(), callback);
  }

  override touch(sid: string, sess: SessionData, callback?: () => void): void {
    // express-session's touch callback takes no error: a missed touch only shortens the session.
    this.sessions.touch(sid, this.expiry(sess)).then(() => callback?.(), () => callback?.());
  }

  pruneExpired(): Promise<void> {
    return this.sessions.pruneExpired();
  }
}

export function sessionMiddleware(options: { store: Store; secret: string; secure: boolean }): RequestHandler {
  return session({
    name: 'rsid',
    store: options.store,
    secret: options.secret,
    resave: false,
    saveUninitialized: false,
    rolling: true,
    cookie: { httpOnly: true, sameSite: 'lax', secure: options.secure, maxAge: SESSION_TTL_MS },
  });
}

/** Gives a visitor without an account an anonymous identity on their first /api request. */
export const ensureVisitorIdentity: RequestHandler = (req, _res, next) => {
  if (!req.session.userId && !req.session.anonId) req.session.anonId = randomUUID();
  next();
};

/** Who owns what a request touches: the account when signed in, else the anonymous session. */
export type Owner = QuotaOwner;

export function ownerOf(sess: Partial<SessionData>, clientIp?: string): Owner {
  return { userId: sess.userId ?? null, anonId: sess.userId ? null : (sess.anonId ?? null), clientIp: clientIp ?? null };
}
