import { personalWorkspace, WORKSPACE_HEADER, WORKSPACE_MESSAGES, type TokenScope, type WorkspaceScope } from '@receipts/common';
import type { Acting, UserRepository, UserRow, WorkspaceRepository } from '@receipts/infra';
import type { Request, RequestHandler } from 'express';
import { HttpError, notFound } from './http-error.js';
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
 * address an anonymous quota is also counted under (a token request's account is set by
 * bearerAuth already); then, once per request, the workspace an account acts in and its role
 * there. The workspace is the one the request names (X-Workspace-Id, 404 unless a member), else
 * the one the session switched to, else the account's own. A session's workspace the account
 * has since left falls back to its own.
 */
export function resolveOwner(workspaces: Pick<WorkspaceRepository, 'membership'>): RequestHandler {
  return (req, _res, next) => {
    if (!req.token) req.owner = ownerOf(req.session, req.sessionID, req.ip);
    const { userId } = req.owner;
    if (!userId) return next();
    const header = req.get(WORKSPACE_HEADER);
    const named = typeof header === 'string' ? header : undefined;
    const wanted = named ?? (req.token ? undefined : req.session.workspaceId) ?? userId;
    // The account's own workspace has the account's id and is always there: no query for it.
    if (wanted === userId) {
      req.owner.workspace = personalWorkspace(userId);
      return next();
    }
    const found = UUID.test(wanted) ? workspaces.membership(userId, wanted) : Promise.resolve(null);
    found.then((membership) => {
      if (membership) {
        req.owner.workspace = { id: membership.workspace.id, role: membership.role, personal: membership.workspace.personalOf !== null };
        return next();
      }
      if (named !== undefined) return next(notFound(WORKSPACE_MESSAGES.notFound));
      delete req.session.workspaceId;
      req.owner.workspace = personalWorkspace(userId);
      next();
    }, next);
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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

/** The workspace a signed-in request acts in (resolveOwner); 401 for an anonymous one. */
export function workspaceOf(req: Pick<Request, 'owner'>): WorkspaceScope {
  const { workspace } = req.owner;
  if (!workspace) throw unauthenticated();
  return workspace;
}

/** Who acts, and in which workspace, for a signed-in request's audited write (401 for an anonymous one). */
export function actingOf(req: Pick<Request, 'owner'>): Acting {
  return { workspaceId: workspaceOf(req).id, actorId: req.owner.userId };
}
