import { z } from 'zod';

/**
 * What the audit trail records, one name per kind of act. Who did it and when go beside it;
 * `subject` names what it was done to (a receipt, a member, a report), `detail` the rest.
 */
export const AUDIT_ACTIONS = [
  'receipt.uploaded',
  'receipt.corrected',
  'receipt.accepted',
  /** A flag's acceptance taken back: the receipt needs review again. */
  'receipt.reopened',
  'receipt.deleted',
  'receipt.submitted',
  'receipt.approved',
  'receipt.rejected',
  'report.submitted',
  'report.approved',
  'report.rejected',
  'export.downloaded',
  'workspace.created',
  'workspace.renamed',
  'settings.changed',
  'member.invited',
  'invitation.revoked',
  'member.joined',
  'member.removed',
  'member.left',
  'member.role-changed',
  'ownership.transferred',
] as const;
export const auditActionSchema = z.enum(AUDIT_ACTIONS);
export type AuditAction = z.infer<typeof auditActionSchema>;

/** One recorded act, as the audit page lists it and "Download my data" holds it. */
export const auditEventViewSchema = z.object({
  id: z.string(),
  action: auditActionSchema,
  /** Who did it: their address then, kept when the account is gone; null for the system. */
  actor: z.string().nullable(),
  subject: z.string().nullable(),
  detail: z.record(z.string(), z.unknown()),
  at: z.string(),
});
export type AuditEventView = z.infer<typeof auditEventViewSchema>;

/** What the audit page's filter and each row call an act. */
export const AUDIT_ACTION_LABELS: Record<AuditAction, string> = {
  'receipt.uploaded': 'Receipt uploaded',
  'receipt.corrected': 'Receipt corrected',
  'receipt.accepted': 'Flag accepted',
  'receipt.reopened': 'Flag reopened',
  'receipt.deleted': 'Receipt deleted',
  'receipt.submitted': 'Receipt submitted',
  'receipt.approved': 'Receipt approved',
  'receipt.rejected': 'Receipt rejected',
  'report.submitted': 'Report submitted',
  'report.approved': 'Report approved',
  'report.rejected': 'Report rejected',
  'export.downloaded': 'Export downloaded',
  'workspace.created': 'Workspace created',
  'workspace.renamed': 'Workspace renamed',
  'settings.changed': 'Settings changed',
  'member.invited': 'Member invited',
  'invitation.revoked': 'Invitation revoked',
  'member.joined': 'Member joined',
  'member.removed': 'Member removed',
  'member.left': 'Member left',
  'member.role-changed': 'Role changed',
  'ownership.transferred': 'Ownership transferred',
};

/** Messages of the audit trail, said by the api and shown by the web. */
export const AUDIT_MESSAGES = {
  cursorInvalid: 'That page of the audit trail cannot be found. Start again from the newest.',
  actorInvalid: 'Filter by a member of the workspace.',
  empty: 'Nothing has been recorded yet.',
  emptyFiltered: 'Nothing recorded matches these filters.',
  /** Who acted, when their account is gone and no address was kept (the system). */
  system: 'The system',
} as const;

/** Events per page of the audit trail, and the most one page may ask for. */
export const AUDIT_PAGE_SIZE = 50;
export const AUDIT_PAGE_SIZE_MAX = 200;

/** GET /api/workspaces/current/audit: newest first, after `cursor` (the previous page's `next`), of one kind of act and one member. */
export const auditQuerySchema = z.object({
  action: auditActionSchema.optional(),
  actor: z.string().uuid(AUDIT_MESSAGES.actorInvalid).optional(),
  cursor: z.string().max(200, AUDIT_MESSAGES.cursorInvalid).optional(),
  limit: z.coerce.number().int().min(1).max(AUDIT_PAGE_SIZE_MAX).default(AUDIT_PAGE_SIZE),
});
export type AuditQuery = z.infer<typeof auditQuerySchema>;

/** Someone the trail can be filtered by: who acted in the workspace, by the address they have now. */
export const auditActorSchema = z.object({ id: z.string(), email: z.string() });
export type AuditActor = z.infer<typeof auditActorSchema>;

/** A page of the workspace's trail; `next` asks for the page after it (null: this was the last). */
export const auditPageSchema = z.object({
  events: z.array(auditEventViewSchema),
  next: z.string().nullable(),
  actors: z.array(auditActorSchema),
});
export type AuditPage = z.infer<typeof auditPageSchema>;

/** One of "Download my data"'s audit.json entries: an act of the person's own, in the workspace it was done in. */
export const ownAuditEventSchema = auditEventViewSchema.omit({ actor: true }).extend({ workspace: z.object({ id: z.string(), name: z.string() }) });
export type OwnAuditEvent = z.infer<typeof ownAuditEventSchema>;
