import { describe, expect, it } from 'vitest';
import { receiptNeedsApproval, WORKSPACE_ACTIONS, WORKSPACE_ROLES, workspaceAllows, type WorkspaceAction, type WorkspaceRole } from './workspace-policy.rule.js';

/**
 * The whole matrix, written out by hand (o: owner, a: admin, c: accountant, m: member) for a
 * team workspace and for a personal one, so a change to the policy has to change this table too.
 */
const TEAM: Record<WorkspaceAction, string> = {
  'receipts:own': 'oacm',
  'receipts:all': 'oac',
  'receipts:submit': 'm',
  'receipts:approve': 'oac',
  export: 'oac',
  'reports:read': 'oac',
  'members:read': 'oacm',
  'members:manage': 'oa',
  'settings:change': 'oa',
  'billing:manage': 'o',
  'ownership:transfer': 'o',
  'workspace:delete': 'o',
  'workspace:leave': 'acm',
  'audit:read': 'oa',
};
/** A personal workspace has only its owner, who does everything but what needs a second person. */
const PERSONAL_OWNER: Record<WorkspaceAction, boolean> = {
  'receipts:own': true,
  'receipts:all': true,
  'receipts:submit': false,
  'receipts:approve': false,
  export: true,
  'reports:read': true,
  'members:read': true,
  'members:manage': false,
  'settings:change': true,
  'billing:manage': true,
  'ownership:transfer': false,
  'workspace:delete': false,
  'workspace:leave': false,
  'audit:read': true,
};
const LETTER: Record<WorkspaceRole, string> = { owner: 'o', admin: 'a', accountant: 'c', member: 'm' };

describe('workspace policy', () => {
  it('the table names every action', () => {
    expect(Object.keys(TEAM).sort()).toEqual([...WORKSPACE_ACTIONS].sort());
  });

  const team = WORKSPACE_ROLES.flatMap((role) => WORKSPACE_ACTIONS.map((action) => [role, action, TEAM[action].includes(LETTER[role])] as const));
  it.each(team)('in a team workspace, %s may %s: %s', (role, action, allowed) => {
    expect(workspaceAllows(role, action, { personal: false })).toBe(allowed);
  });

  it.each(WORKSPACE_ACTIONS.map((action) => [action, PERSONAL_OWNER[action]] as const))('in a personal workspace, the owner may %s: %s', (action, allowed) => {
    expect(workspaceAllows('owner', action, { personal: true })).toBe(allowed);
  });

  it.each(['owner', 'admin', 'accountant'] as const)('a %s never approves a receipt they uploaded', (role) => {
    expect(workspaceAllows(role, 'receipts:approve', { personal: false, ownReceipt: true })).toBe(false);
    expect(workspaceAllows(role, 'receipts:approve', { personal: false, ownReceipt: false })).toBe(true);
  });

  it.each([
    ['owner', 'admin', true],
    ['owner', 'owner', false],
    ['admin', 'admin', true],
    ['admin', 'member', true],
    ['admin', 'owner', false],
    ['accountant', 'member', false],
    ['member', 'member', false],
  ] as const)('a %s managing a %s: %s', (role, targetRole, allowed) => {
    expect(workspaceAllows(role, 'members:manage', { personal: false, targetRole })).toBe(allowed);
  });

  it.each([
    ['member', false, true],
    ['member', true, false],
    ['accountant', false, false],
    ['admin', false, false],
    ['owner', false, false],
    ['owner', true, false],
  ] as const)("a %s's receipt (personal %s) waits for approval: %s", (role, personal, waits) => {
    expect(receiptNeedsApproval(role, personal)).toBe(waits);
  });
});
