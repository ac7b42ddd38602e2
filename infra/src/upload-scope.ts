import { actingWorkspace, workspaceAllows } from '@receipts/common';
import { and, eq, isNull, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { uploads, type UploadRow } from './db/schema.js';
import type { QuotaOwner } from './quota.service.js';

/**
 * One owner as a string: `user:<id>` for an account, `anon:<id>` for an anonymous session. Names
 * the owner's Socket.IO room (ownerRoom) and the namespace of its Idempotency-Keys.
 */
export function ownerKey(owner: Pick<QuotaOwner, 'userId' | 'anonId'>): string {
  if (owner.userId) return `user:${owner.userId}`;
  if (owner.anonId) return `anon:${owner.anonId}`;
  throw new Error('An owner has an account or an anonymous session');
}

/**
 * The uploads the owner may see: in the workspace an account acts in, all of them or only those
 * it uploaded, as its role says (workspaceAllows); an anonymous session's not yet taken over by
 * an account.
 */
export function ownedBy(owner: Pick<QuotaOwner, 'userId' | 'anonId' | 'workspace'>): SQL {
  if (owner.userId) {
    const workspace = actingWorkspace(owner)!;
    const inWorkspace = eq(uploads.workspaceId, workspace.id);
    return workspaceAllows(workspace.role, 'receipts:all', workspace) ? inWorkspace : and(inWorkspace, eq(uploads.userId, owner.userId))!;
  }
  if (owner.anonId) return and(eq(uploads.anonId, owner.anonId), isNull(uploads.userId))!;
  throw new Error('An owner has an account or an anonymous session');
}

/** Select this beside an upload (left-joined on `duplicateOf`) to name the earlier upload it repeats. */
export const duplicateOriginal = alias(uploads, 'original');

/**
 * The uploads of the same uploader in the same place as this one (its workspace, or its
 * anonymous session): where a "same receipt" twin is looked for, so a member's receipt is never
 * flagged against one they cannot see.
 */
export function sameUploaderAs(upload: Pick<UploadRow, 'workspaceId' | 'userId' | 'anonId'>): SQL {
  if (upload.workspaceId) return and(eq(uploads.workspaceId, upload.workspaceId), upload.userId ? eq(uploads.userId, upload.userId) : isNull(uploads.userId))!;
  return ownedBy({ userId: null, anonId: upload.anonId });
}
