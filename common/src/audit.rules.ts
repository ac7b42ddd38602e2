import { AUDIT_ACTION_LABELS, type AuditAction, type AuditEventView } from './audit.schema.js';
import { EXPORT_PRESET_LABELS, type ExportPreset } from './export/accounting-presets.js';
import { DATEV_SETTING_LABELS, type DatevSettings } from './export/datev-settings.schema.js';
import type { ExportFormat } from './export/export-request.schema.js';
import { WORKSPACE_ROLE_NAMES } from './membership.schema.js';
import type { REPORT_EXPORT_FORMATS } from './approval.schema.js';
import type { MerchantRuleKind } from './merchant-rules.rule.js';
import { EDITABLE_FIELD_LABELS, type EditableField } from './receipt-edit.rule.js';
import type { AssignableRole, WorkspaceRole } from './workspace-policy.rule.js';

/** Which setting a `settings.changed` act changed, and how. */
export type SettingsChange =
  | { setting: 'datev'; fields: Array<keyof DatevSettings> }
  | { setting: 'category'; change: 'added'; name: string; datevAccount: string | null }
  | { setting: 'category'; change: 'changed'; name: string; to?: string; datevAccount?: string | null }
  | { setting: 'category'; change: 'deleted'; name: string }
  | { setting: 'rule'; change: 'edited'; kind: MerchantRuleKind; match: string; value: string }
  | { setting: 'rule'; change: 'deleted'; kind: MerchantRuleKind; match: string };

/**
 * What an act's `detail` holds, by action: the api writes these, the audit page reads them. The
 * subject of every act on a receipt is its upload's id (the one id it has from upload to deletion).
 * Actions not listed here carry what their recorder chose.
 */
export interface AuditDetails {
  'receipt.uploaded': { filename: string };
  /** Which fields changed, not their values: the receipt's own history keeps those. */
  'receipt.corrected': { filename: string; fields: EditableField[] };
  /** The flags as the receipt showed them. */
  'receipt.accepted': { filename: string; flags: string[] };
  'receipt.reopened': { filename: string; flag: string };
  'receipt.deleted': { filename: string };
  /** `report`: an expense report's PDF or workbook (its name), not a selection of the library. */
  'export.downloaded': { format: ExportFormat | (typeof REPORT_EXPORT_FORMATS)[number]; preset: ExportPreset; receipts: number; report?: string };
  /** The report it went in (null: alone); a decision's comment. */
  'receipt.submitted': { filename: string; reportId: string | null };
  'receipt.approved': { filename: string; reportId: string | null; comment: string | null };
  'receipt.rejected': { filename: string; reportId: string | null; comment: string | null };
  /** The subject of an act on a report is its id. */
  'report.submitted': { name: string; receipts: number };
  'report.approved': { name: string; receipts: number; comment: string | null };
  'report.rejected': { name: string; receipts: number; comment: string | null };
  'workspace.created': { name: string };
  'workspace.renamed': { from: string; to: string };
  'settings.changed': SettingsChange;
  /** The subject of every act on a member or an invitation is the person's address. */
  'member.invited': { role: AssignableRole; invitationId: string; resent?: boolean };
  'invitation.revoked': { role: AssignableRole; invitationId: string };
  'member.joined': { role: AssignableRole; invitationId: string };
  'member.removed': { userId: string; role: WorkspaceRole };
  'member.left': { role: WorkspaceRole };
  'member.role-changed': { userId: string; from: WorkspaceRole; to: AssignableRole };
  'ownership.transferred': { userId: string; formerRole: WorkspaceRole };
}

/** The detail an action records: its shape above, or whatever its recorder chose. */
export type AuditDetail<A extends AuditAction> = A extends keyof AuditDetails ? AuditDetails[A] : Record<string, unknown>;

const RULE_NAMES: Record<MerchantRuleKind, string> = { merchant: 'merchant-name', category: 'category', tags: 'tags' };

const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const texts = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);
const quoted = (value: unknown) => `“${text(value)}”`;
const receiptCount = (value: unknown) => {
  const n = typeof value === 'number' ? value : 0;
  return `${n} receipt${n === 1 ? '' : 's'}`;
};
/** "a", "a and b", "a, b and c". */
const listed = (items: readonly string[]) => (items.length < 2 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`);

function settingsSummary(change: Record<string, unknown>): string | null {
  if (change.setting === 'datev') return `Changed the DATEV settings: ${listed(texts(change.fields).map((f) => DATEV_SETTING_LABELS[f as keyof DatevSettings] ?? f)) || 'saved as they were'}`;
  if (change.setting === 'category') {
    const name = quoted(change.name);
    if (change.change === 'added') return `Added the category ${name}${change.datevAccount ? ` (DATEV account ${text(change.datevAccount)})` : ''}`;
    if (change.change === 'deleted') return `Deleted the category ${name}; its receipts moved to other`;
    const parts = [
      ...(change.to !== undefined ? [`renamed it to ${quoted(change.to)}`] : []),
      ...(change.datevAccount !== undefined ? [change.datevAccount ? `set its DATEV account to ${text(change.datevAccount)}` : 'cleared its DATEV account'] : []),
    ];
    return `Changed the category ${name}: ${listed(parts) || 'no change'}`;
  }
  if (change.setting === 'rule') {
    const rule = `${RULE_NAMES[change.kind as MerchantRuleKind] ?? 'learned'} rule for ${quoted(change.match)}`;
    return change.change === 'deleted' ? `Forgot the ${rule}` : `Changed the ${rule} to ${quoted(change.value)}`;
  }
  return null;
}

const roleName = (role: unknown): string => WORKSPACE_ROLE_NAMES[role as WorkspaceRole] ?? text(role);

/** What an act did, as a sentence for the audit page (its label when the detail says no more). */
export function auditSummary(event: Pick<AuditEventView, 'action' | 'detail'> & { subject?: string | null }): string {
  const { detail } = event;
  const file = text(detail.filename) || 'a receipt';
  const person = event.subject || 'someone';
  const summary = ((): string | null => {
    switch (event.action) {
      case 'receipt.uploaded':
        return `Uploaded ${file}`;
      case 'receipt.corrected': {
        const fields = listed(texts(detail.fields).map((f) => EDITABLE_FIELD_LABELS[f as EditableField] ?? f));
        return fields ? `Corrected the ${fields} of ${file}` : `Corrected ${file}`;
      }
      case 'receipt.accepted': {
        const flags = listed(texts(detail.flags).map(quoted));
        return flags ? `Accepted ${flags} on ${file}` : `Accepted a flag on ${file}`;
      }
      case 'receipt.reopened':
        return `Took back the acceptance of ${quoted(detail.flag)} on ${file}`;
      case 'receipt.deleted':
        return `Deleted ${file}`;
      case 'export.downloaded': {
        const n = typeof detail.receipts === 'number' ? detail.receipts : 0;
        const preset = detail.preset === 'generic' ? '' : ` for ${EXPORT_PRESET_LABELS[detail.preset as ExportPreset] ?? text(detail.preset)}`;
        const report = detail.report ? ` of the report ${quoted(detail.report)}` : '';
        return `Exported ${n} receipt${n === 1 ? '' : 's'}${report}${preset} (${text(detail.format).toUpperCase()})`;
      }
      case 'receipt.submitted':
        return `Submitted ${file} for approval${detail.reportId ? ' in a report' : ''}`;
      case 'receipt.approved':
      case 'receipt.rejected':
        return `${event.action === 'receipt.approved' ? 'Approved' : 'Rejected'} ${file}${detail.comment ? `: ${quoted(detail.comment)}` : ''}`;
      case 'report.submitted':
        return `Submitted the report ${quoted(detail.name)} (${receiptCount(detail.receipts)})`;
      case 'report.approved':
      case 'report.rejected':
        return `${event.action === 'report.approved' ? 'Approved' : 'Rejected'} the report ${quoted(detail.name)} (${receiptCount(detail.receipts)})${detail.comment ? `: ${quoted(detail.comment)}` : ''}`;
      case 'workspace.created':
        return `Created the workspace ${quoted(detail.name)}`;
      case 'workspace.renamed':
        return `Renamed the workspace from ${quoted(detail.from)} to ${quoted(detail.to)}`;
      case 'settings.changed':
        return settingsSummary(detail);
      case 'member.invited':
        return `Invited ${person} as ${roleName(detail.role)}${detail.resent ? ' (sent again)' : ''}`;
      case 'invitation.revoked':
        return `Revoked the invitation of ${person}`;
      case 'member.joined':
        return `Joined as ${roleName(detail.role)}`;
      case 'member.removed':
        return `Removed ${person} (${roleName(detail.role)})`;
      case 'member.left':
        return 'Left the workspace';
      case 'member.role-changed':
        return detail.from && detail.to ? `Changed the role of ${person} from ${roleName(detail.from)} to ${roleName(detail.to)}` : null;
      case 'ownership.transferred':
        return `Handed the workspace to ${person}`;
      default:
        return null;
    }
  })();
  return summary ?? AUDIT_ACTION_LABELS[event.action];
}
