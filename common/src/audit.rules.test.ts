import { describe, expect, it } from 'vitest';
import { auditSummary, type AuditDetails } from './audit.rules.js';
import { AUDIT_ACTIONS, AUDIT_ACTION_LABELS, auditQuerySchema, type AuditAction } from './audit.schema.js';
import { changedDatevSettings, DEFAULT_DATEV_SETTINGS } from './export/datev-settings.schema.js';

const said = <A extends keyof AuditDetails>(action: A, detail: AuditDetails[A]) => auditSummary({ action, detail });

describe('auditSummary', () => {
  it('says what each recorded act did', () => {
    expect(said('receipt.uploaded', { filename: 'Taxi.pdf' })).toBe('Uploaded Taxi.pdf');
    expect(said('receipt.corrected', { filename: 'Taxi.pdf', fields: ['merchantName'] })).toBe('Corrected the merchant of Taxi.pdf');
    expect(said('receipt.corrected', { filename: 'Taxi.pdf', fields: ['date', 'total', 'items'] })).toBe('Corrected the date, total and items of Taxi.pdf');
    expect(said('receipt.accepted', { filename: 'a.png', flags: ['Low quality', 'Date out of reasonable range'] })).toBe('Accepted “Low quality” and “Date out of reasonable range” on a.png');
    expect(said('receipt.reopened', { filename: 'a.png', flag: 'Low quality' })).toBe('Took back the acceptance of “Low quality” on a.png');
    expect(said('receipt.deleted', { filename: 'a.png' })).toBe('Deleted a.png');
    expect(said('export.downloaded', { format: 'csv', preset: 'quickbooks', receipts: 12 })).toBe('Exported 12 receipts for QuickBooks (CSV)');
    expect(said('export.downloaded', { format: 'xlsx', preset: 'generic', receipts: 1 })).toBe('Exported 1 receipt (XLSX)');
    expect(said('workspace.created', { name: 'Acme' })).toBe('Created the workspace “Acme”');
    expect(said('workspace.renamed', { from: 'Acme', to: 'Acme GmbH' })).toBe('Renamed the workspace from “Acme” to “Acme GmbH”');
  });

  it('says what was done to whom, among the members', () => {
    const about = <A extends keyof AuditDetails>(action: A, detail: AuditDetails[A]) => auditSummary({ action, detail, subject: 'mia@example.test' });
    expect(about('member.invited', { role: 'accountant', invitationId: 'i1' })).toBe('Invited mia@example.test as Accountant');
    expect(about('member.invited', { role: 'member', invitationId: 'i1', resent: true })).toBe('Invited mia@example.test as Member (sent again)');
    expect(about('invitation.revoked', { role: 'member', invitationId: 'i1' })).toBe('Revoked the invitation of mia@example.test');
    expect(about('member.joined', { role: 'admin', invitationId: 'i1' })).toBe('Joined as Admin');
    expect(about('member.removed', { userId: 'u1', role: 'member' })).toBe('Removed mia@example.test (Member)');
    expect(about('member.left', { role: 'accountant' })).toBe('Left the workspace');
    expect(about('member.role-changed', { userId: 'u1', from: 'member', to: 'accountant' })).toBe('Changed the role of mia@example.test from Member to Accountant');
    expect(about('ownership.transferred', { userId: 'u1', formerRole: 'admin' })).toBe('Handed the workspace to mia@example.test');
  });

  it('says what each step of submit → approve did', () => {
    expect(said('receipt.submitted', { filename: 'Taxi.pdf', reportId: null })).toBe('Submitted Taxi.pdf for approval');
    expect(said('receipt.submitted', { filename: 'Taxi.pdf', reportId: '9c8b7a6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d' })).toBe('Submitted Taxi.pdf for approval in a report');
    expect(said('receipt.approved', { filename: 'Taxi.pdf', reportId: null, comment: null })).toBe('Approved Taxi.pdf');
    expect(said('receipt.rejected', { filename: 'Taxi.pdf', reportId: null, comment: 'The total is 8' })).toBe('Rejected Taxi.pdf: “The total is 8”');
    expect(said('report.submitted', { name: 'March', receipts: 3 })).toBe('Submitted the report “March” (3 receipts)');
    expect(said('report.approved', { name: 'March', receipts: 1, comment: null })).toBe('Approved the report “March” (1 receipt)');
    expect(said('report.rejected', { name: 'March', receipts: 2, comment: 'Split the hotel' })).toBe('Rejected the report “March” (2 receipts): “Split the hotel”');
    expect(said('export.downloaded', { format: 'pdf', preset: 'generic', receipts: 2, report: 'March' })).toBe('Exported 2 receipts of the report “March” (PDF)');
  });

  it('says which setting changed, and how', () => {
    expect(said('settings.changed', { setting: 'datev', fields: ['consultantNumber', 'cashAccount', 'taxKeys'] })).toBe('Changed the DATEV settings: Beraternummer, Kasse and BU-Schlüssel');
    expect(said('settings.changed', { setting: 'datev', fields: [] })).toBe('Changed the DATEV settings: saved as they were');
    expect(said('settings.changed', { setting: 'category', change: 'added', name: 'Travel', datevAccount: null })).toBe('Added the category “Travel”');
    expect(said('settings.changed', { setting: 'category', change: 'changed', name: 'Travel', to: 'Trips', datevAccount: '4670' })).toBe(
      'Changed the category “Travel”: renamed it to “Trips” and set its DATEV account to 4670',
    );
    expect(said('settings.changed', { setting: 'category', change: 'changed', name: 'Trips', datevAccount: null })).toBe('Changed the category “Trips”: cleared its DATEV account');
    expect(said('settings.changed', { setting: 'category', change: 'deleted', name: 'Trips' })).toBe('Deleted the category “Trips”; its receipts moved to other');
    expect(said('settings.changed', { setting: 'rule', change: 'edited', kind: 'tags', match: 'Rail Co', value: 'travel, client A' })).toBe(
      'Changed the tags rule for “Rail Co” to “travel, client A”',
    );
    expect(said('settings.changed', { setting: 'rule', change: 'deleted', kind: 'category', match: 'Rail Co' })).toBe('Forgot the category rule for “Rail Co”');
  });

  it('falls back to the act’s label for acts it has no words for, or a detail it cannot read', () => {
    for (const action of AUDIT_ACTIONS) expect(auditSummary({ action, detail: { setting: 'unknown' } }).length).toBeGreaterThan(0);
    expect(auditSummary({ action: 'member.role-changed', detail: { role: 'admin' } })).toBe(AUDIT_ACTION_LABELS['member.role-changed']);
    expect(auditSummary({ action: 'settings.changed', detail: { setting: 'webhooks' } })).toBe(AUDIT_ACTION_LABELS['settings.changed']);
    expect(auditSummary({ action: 'receipt.corrected', detail: {} })).toBe('Corrected a receipt');
  });

  it('labels every action, once', () => {
    expect(Object.keys(AUDIT_ACTION_LABELS).sort()).toEqual([...AUDIT_ACTIONS].sort());
    expect(new Set(Object.values(AUDIT_ACTION_LABELS)).size).toBe(AUDIT_ACTIONS.length);
  });
});

describe('changedDatevSettings', () => {
  it('names the settings that differ, whatever order a stored object’s keys come back in', () => {
    const stored = JSON.parse(JSON.stringify({ ...DEFAULT_DATEV_SETTINGS, expenseAccounts: Object.fromEntries(Object.entries(DEFAULT_DATEV_SETTINGS.expenseAccounts).reverse()) }));
    expect(changedDatevSettings(DEFAULT_DATEV_SETTINGS, stored)).toEqual([]);
    expect(changedDatevSettings(DEFAULT_DATEV_SETTINGS, { ...stored, clientNumber: 815, taxKeys: [{ rate: 19, key: '9' }] })).toEqual(['clientNumber', 'taxKeys']);
    expect(changedDatevSettings(DEFAULT_DATEV_SETTINGS, { ...stored, expenseAccounts: { ...stored.expenseAccounts, gas: '4540' } })).toEqual(['expenseAccounts']);
  });
});

describe('auditQuerySchema', () => {
  it('takes an action, a member and a page size, with a default size', () => {
    const action: AuditAction = 'export.downloaded';
    expect(auditQuerySchema.parse({ action, limit: '20' })).toEqual({ action, limit: 20 });
    expect(auditQuerySchema.parse({})).toEqual({ limit: 50 });
    expect(auditQuerySchema.safeParse({ action: 'receipt.stolen' }).success).toBe(false);
  });
});
