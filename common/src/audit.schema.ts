import { z } from 'zod';

/**
 * What the audit trail records, one name per kind of act. Who did it and when go beside it;
 * `subject` names what it was done to (a receipt, a member, a report), `detail` the rest.
 */
export const AUDIT_ACTIONS = [
  'receipt.uploaded',
  'receipt.corrected',
  'receipt.accepted',
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
