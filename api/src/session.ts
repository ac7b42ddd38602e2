import { createHash, randomBytes } from 'node:crypto';
import type { QuotaOwner, SessionRepository } from '@receipts/infra';
import type { Request, RequestHandler } from 'express';
import session, { type SessionData, Store } from 'express-session';

declare module 'express-session' {
  interface SessionData {
    /** An anonymous visitor's identity in sessions stored before it was derived from the session id. */
    anonId?: string;
    userId?: string;
    /** The workspace the account switched to (PUT /api/workspaces/current); none: its own. */
    workspaceId?: string;
  }
}

const SESSION_TTL_MS = 30 * 24 * 3600 * 1000;
/**
 * A stored session's expiry is written at most this often per process: rolling it forward on
 * every request was an UPDATE per request (40 a batch of 40 uploads). Its row may then expire up
 * to this much before its cookie says, after 30 days unused.
 */
export const TOUCH_INTERVAL_MS = 3600 * 1000;
/** Sessions whose last touch this process remembers; past it, the one touched longest ago is forgotten (and touched again next time). */
const MAX_REMEMBERED_TOUCHES = 10_000;

/** Whether a session holds anything besides its cookie; an empty one is never written. */
const carriesSomething = (sess: SessionData) => Object.keys(sess).some((key) => key !== 'cookie');

/**
 * Session ids say whether they can have a stored session: a visitor's first id (`anon-…`) never
 * can, since signing in always moves to a new id (`user-…`, see regenerateSignedIn). So an
 * anonymous request, most of the traffic, costs no database round trip for its session. Ids made
 * before this scheme (neither prefix) are looked up as before. The cookie is signed, so a client
 * cannot change an id's prefix.
 */
const ANONYMOUS_ID = 'anon-';
const SIGNED_IN_ID = 'user-';
const signingIn = new WeakSet<Request>();
const isAnonymousId = (sid: string) => sid.startsWith(ANONYMOUS_ID);
const newSessionId = (req: Request) => `${signingIn.has(req) ? SIGNED_IN_ID : ANONYMOUS_ID}${randomBytes(24).toString('base64url')}`;

/** A new session id for the visitor signing in (no fixation), one that can hold the account. */
export function regenerateSignedIn(req: Request): Promise<void> {
  signingIn.add(req);
  return new Promise<void>((resolve, reject) => req.session.regenerate((err) => (err ? reject(err) : resolve()))).finally(() => signingIn.delete(req));
}

/**
 * express-session's store in PostgreSQL (or PGlite). Only sessions that carry something (a
 * signed-in user) are stored: an anonymous visitor's session is its signed cookie alone, so
 * cookie-less requests (2,000 of them made 2,000 rows) write nothing.
 */
export class DatabaseSessionStore extends Store {
  /** When this process last wrote each stored session's expiry (ms), oldest first. */
  private readonly touched = new Map<string, number>();

  constructor(
    private readonly sessions: SessionRepository,
    private readonly secure: boolean,
    private readonly now: () => number = Date.now,
  ) {
    super();
  }

  private rememberTouch(sid: string): void {
    this.touched.delete(sid);
    this.touched.set(sid, this.now());
    if (this.touched.size > MAX_REMEMBERED_TOUCHES) this.touched.delete(this.touched.keys().next().value!);
  }

  private expiry(sess: SessionData): Date {
    const expires = sess.cookie?.expires;
    return expires ? new Date(expires) : new Date(Date.now() + SESSION_TTL_MS);
  }

  /** A session id we signed but never stored: an anonymous session, kept under the same id. */
  private unstored(): SessionData {
    const cookie = { originalMaxAge: SESSION_TTL_MS, expires: new Date(Date.now() + SESSION_TTL_MS), ...cookieOptions(this.secure), path: '/' };
    return { cookie } as unknown as SessionData;
  }

  override get(sid: string, callback: (err: unknown, session?: SessionData | null) => void): void {
    if (isAnonymousId(sid)) return callback(null, this.unstored());
    this.sessions.get(sid).then((sess) => callback(null, (sess as SessionData | null) ?? this.unstored()), callback);
  }

  override set(sid: string, sess: SessionData, callback?: (err?: unknown) => void): void {
    if (isAnonymousId(sid)) {
      // Never read back (see ANONYMOUS_ID): data put in such a session would be lost, so say so.
      return callback?.(carriesSomething(sess) ? new Error('An anonymous session id cannot hold data; sign-in moves to a new id first') : undefined);
    }
    const stored = carriesSomething(sess);
    const write = stored ? this.sessions.set(sid, sess as unknown as Record<string, unknown>, this.expiry(sess)) : this.sessions.destroy(sid);
    write.then(() => {
      if (stored) this.rememberTouch(sid);
      else this.touched.delete(sid);
      callback?.();
    }, callback);
  }

  override destroy(sid: string, callback?: (err?: unknown) => void): void {
    this.touched.delete(sid);
    this.sessions.destroy(sid).then(() => callback?.(), callback);
  }

  override touch(sid: string, sess: SessionData, callback?: () => void): void {
    // An anonymous session has no row to touch, and express-session holds the answer until the
    // touch ends: a round trip on every anonymous request for nothing.
    if (!carriesSomething(sess)) return callback?.();
    const last = this.touched.get(sid);
    if (last !== undefined && this.now() - last < TOUCH_INTERVAL_MS) return callback?.();
    // express-session's touch callback takes no error: a missed touch only shortens the session.
    this.sessions.touch(sid, this.expiry(sess)).then(
      () => {
        this.rememberTouch(sid);
        callback?.();
      },
      () => callback?.(),
    );
  }

  pruneExpired(): Promise<void> {
    return this.sessions.pruneExpired();
  }
}

function cookieOptions(secure: boolean) {
  return { httpOnly: true, sameSite: 'lax' as const, secure };
}

export const SESSION_COOKIE = 'rsid';

/**
 * An anonymous session's cookie is sent once, when the visitor has none. Re-sending it on every
 * answer (`rolling`) raced with sign-in: a request made before signing in that answered after it
 * put the anonymous cookie back over the signed-in one, and the visitor was signed out. A stored
 * session (signed in) still rolls its expiry with each answer.
 */
function keepAnonymousCookieAsSent(): RequestHandler {
  return (req, res, next) => {
    const sent = req.headers.cookie
      ?.split(';')
      .map((c) => c.trim())
      .find((c) => c.startsWith(`${SESSION_COOKIE}=`));
    if (!sent) return next();
    const setHeader = res.setHeader.bind(res);
    res.setHeader = (name: string, value: number | string | readonly string[]) => {
      if (name.toLowerCase() === 'set-cookie' && req.session && !carriesSomething(req.session)) {
        const kept = ([] as string[]).concat(value as string | string[]).filter((c) => !c.startsWith(`${sent};`));
        if (kept.length === 0) return res;
        return setHeader(name, kept);
      }
      return setHeader(name, value);
    };
    next();
  };
}

export function sessionMiddleware(options: { store: Store; secret: string; secure: boolean }): RequestHandler {
  const withSession = session({
    name: SESSION_COOKIE,
    store: options.store,
    secret: options.secret,
    resave: false,
    // Every visitor gets a cookie at once (their anonymous identity); the store writes only
    // sessions that carry something.
    saveUninitialized: true,
    rolling: true,
    genid: newSessionId,
    cookie: { ...cookieOptions(options.secure), maxAge: SESSION_TTL_MS },
  });
  const keepAnonymous = keepAnonymousCookieAsSent();
  return (req, res, next) => keepAnonymous(req, res, () => withSession(req, res, next));
}

/**
 * An anonymous visitor's identity, derived from the session id (a one-way hash: the id stays
 * the secret), so it needs no stored session; a uuid, as the uploads table keeps it.
 */
export function anonIdOf(sid: string): string {
  const h = createHash('sha256').update(`anon:${sid}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

/** Who owns what a request touches: the account when signed in, else the anonymous session. */
export type Owner = QuotaOwner;

export function ownerOf(sess: Partial<SessionData>, sid: string, clientIp?: string): Owner {
  return {
    userId: sess.userId ?? null,
    anonId: sess.userId ? null : (sess.anonId ?? anonIdOf(sid)),
    clientIp: clientIp ?? null,
  };
}
