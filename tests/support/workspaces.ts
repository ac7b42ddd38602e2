import type { AssignableRole, WorkspaceScope } from '@receipts/common';
import { schema, type Database } from '@receipts/infra';

/** Someone's membership written straight to the database (test set-up, no invitation). */
export async function addMember(db: Database, workspaceId: string, userId: string, role: AssignableRole): Promise<void> {
  await db.insert(schema.workspaceMembers).values({ workspaceId, userId, role });
}

/**
 * A team workspace written straight to the database (test set-up, no invitations): its owner and
 * its other members in their roles. Its id.
 */
export async function teamWorkspace(db: Database, owner: string, members: ReadonlyArray<{ userId: string; role: AssignableRole }> = [], name = 'Team'): Promise<string> {
  const [workspace] = await db.insert(schema.workspaces).values({ name }).returning({ id: schema.workspaces.id });
  await db.insert(schema.workspaceMembers).values({ workspaceId: workspace!.id, userId: owner, role: 'owner' });
  for (const { userId, role } of members) await addMember(db, workspace!.id, userId, role);
  return workspace!.id;
}

/** A member's scope in a team workspace, as resolveOwner makes it for their requests. */
export const teamScope = (id: string, role: WorkspaceScope['role']): WorkspaceScope => ({ id, role, personal: false });
