import { actingWorkspace, AUDIT_MESSAGES, type AuditAction, type AuditDetail, type AuditPage, type AuditQuery, type OwnAuditEvent } from '@receipts/common';
import { actedBy, type AuditCursor, type AuditRepository } from '@receipts/infra';
import { HttpError } from '../http-error.js';
import type { Owner } from '../session.js';

const CURSOR = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z)_([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

/** A page's `next` as the client passes it back: opaque to it, the last row's exact time and id to us. */
export const encodeCursor = (cursor: AuditCursor): string => Buffer.from(`${cursor.at}_${cursor.id}`).toString('base64url');

export function decodeCursor(text: string): AuditCursor {
  const match = CURSOR.exec(Buffer.from(text, 'base64url').toString('utf8'));
  if (!match) throw new HttpError(400, 'VALIDATION_FAILED', AUDIT_MESSAGES.cursorInvalid);
  return { at: match[1]!, id: match[2]! };
}

/**
 * The audit trail as the api serves it: a workspace's pages for its owners and admins, a person's
 * own acts for "Download my data", and the acts recorded outside any transaction (an export).
 */
export class AuditService {
  constructor(private readonly audit: AuditRepository) {}

  /** Records an act of the request's account in the workspace it acts in; nothing for an anonymous visitor (no workspace, no trail). */
  async record<A extends AuditAction>(owner: Owner, action: A, detail: AuditDetail<A>, subject: string | null = null): Promise<void> {
    const workspace = actingWorkspace(owner);
    if (!workspace || !owner.userId) return;
    await this.audit.record(actedBy({ workspaceId: workspace.id, actorId: owner.userId }, action, detail, subject));
  }

  /** A page of the workspace's trail, newest first, with who can be filtered by. */
  async page(workspaceId: string, query: AuditQuery): Promise<AuditPage> {
    const after = query.cursor ? decodeCursor(query.cursor) : undefined;
    const [{ events, next }, actors] = await Promise.all([
      this.audit.page(workspaceId, { limit: query.limit, after, action: query.action, actorId: query.actor }),
      this.audit.actors(workspaceId),
    ]);
    return { events, next: next ? encodeCursor(next) : null, actors };
  }

  /** Everything the person did, in every workspace: audit.json of their data. */
  ownActs(userId: string): Promise<OwnAuditEvent[]> {
    return this.audit.byActor(userId);
  }
}
