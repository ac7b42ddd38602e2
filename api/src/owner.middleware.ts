import type { TokenScope } from '@receipts/common';
import type { UserRepository, UserRow } from '@receipts/infra';
import type { RequestHandler } from 'express';
import { HttpError } from './http-error.js';
import { ownerOf, type Owner } from './session.js';

declare global {
  namespace Express {
    interface Request {
      /** Who owns what this request touches, resolved once per request by `resolveOwner`. */
      owner: Owner;
      /** The signed-in user's row, on routes behind `currentUser`. */
      user?: UserRow;
      /** The personal access token this request came with (`Authorization: Bearer …`), instead of a session. */
      token?: { id: string; userId: string; scopes: readonly TokenScope[] };
    }
  }
}

export const unauthenticated = () => new HttpError(401, 'UNAUTHENTICATED', 'Authentication required');

/**
 * The session, for requests that came without an access token: a token request (`req.token`,
 * bearerAuth) neither reads a session nor gets one.
 */
export function sessionUnlessToken(session: RequestHandler): RequestHandler {
  return (req, res, next) => (req.token ? next() : session(req, res, next));
}

/**
 * After the session: the account when signed in, else the anonymous session, with the client
 * address an anonymous quota is also counted under. A token request's owner, its account, is set
 * by bearerAuth already.
 */
export const resolveOwner: RequestHandler = (req, _res, next) => {
  if (!req.token) req.owner = ownerOf(req.session, req.sessionID, req.ip);
  next();
};

/**
 * Signed-in callers only (a session's account or a token's): 401 in the words the web app looks
 * for (spec §4 subscribe flow). Reads `req.owner`, never the session, which a token request has not.
 */
export const requireUser: RequestHandler = (req, _res, next) => {
  next(req.owner.userId ? undefined : unauthenticated());
};

/** Signed-in callers only, with their user row in `req.user` (401 when the account is gone). */
export function currentUser(users: UserRepository): RequestHandler {
  return (req, _res, next) => {
    const { userId } = req.owner;
    if (!userId) return next(unauthenticated());
    users.byId(userId).then((user) => {
      if (!user) return next(unauthenticated());
      req.user = user;
      next();
    }, next);
  };
}
