import { z } from 'zod';
import { currencySpendingSchema, spendingQuerySchema } from './spending.schema.js';
import { workspaceRoleSchema } from './workspace-policy.rule.js';

/**
 * GET /api/workspaces/current/reports query: the period (receipt dates, inclusive), and
 * optionally one category, currency or member.
 */
export const spendingReportQuerySchema = spendingQuerySchema.pick({ from: true, to: true, category: true, currency: true }).extend({
  /** Only the receipts this member uploaded (their account id). */
  member: z.uuid('member must be a member’s id').optional(),
});
export type SpendingReportQuery = z.infer<typeof spendingReportQuerySchema>;

const amount = { total: z.number(), receipts: z.number().int() };

/** What one member's receipts add up to in a currency; `userId` and `email` null for an account that is gone. */
export const memberSpendingSchema = z.object({ userId: z.string().nullable(), email: z.string().nullable(), ...amount });
export type MemberSpending = z.infer<typeof memberSpendingSchema>;

/** A currency's spending (spending.schema.ts) and the same total per member who uploaded, largest first. */
export const reportCurrencySchema = currencySpendingSchema.extend({ members: z.array(memberSpendingSchema) });
export type ReportCurrency = z.infer<typeof reportCurrencySchema>;

/** A member of the workspace as the report names them. */
export const reportMemberSchema = z.object({ userId: z.string(), email: z.string(), username: z.string(), role: workspaceRoleSchema });
export type ReportMember = z.infer<typeof reportMemberSchema>;

/**
 * GET /api/workspaces/current/reports answer: the workspace's spending per currency (never
 * added across currencies), by month, category, merchant and member, and the workspace's
 * members (owner first), whom the report may be narrowed to.
 */
export const spendingReportSchema = z.object({
  currencies: z.array(reportCurrencySchema),
  /** Receipts in the filter that no figure counts: no total, or flagged as a possible duplicate. */
  notCounted: z.number().int(),
  roster: z.array(reportMemberSchema),
});
export type SpendingReport = z.infer<typeof spendingReportSchema>;

/** How a report names a member: by name and address, or as gone. */
export function memberLabel(member: { email: string | null; username?: string | null }): string {
  if (!member.email) return 'Former member';
  return member.username ? `${member.username} (${member.email})` : member.email;
}
