import type { AssignableRole, WorkspaceScope } from '@receipts/common';
import { schema, type Database } from '@receipts/infra';

/**
 * A team workspace owned by `ownerId`, with `members` in their roles, written straight to the
 * database (test set-up: invitations are not what these tests are about). Its id.
 */
export async function createTeamWorkspace(
  db: Database,
  ownerId: string,
  members: ReadonlyArray<{ userId: string; role: AssignableRole }> = [],
  name = 'Team',
): Promise<string> {
  const [workspace] = await db.insert(schema.workspaces).values({ name }).returning({ id: schema.workspaces.id });
  const id = workspace!.id;
  await db.insert(schema.workspaceMembers).values([{ workspaceId: id, userId: ownerId, role: 'owner' as const }, ...members.map((m) => ({ workspaceId: id, ...m }))]);
  return id;
}

/** A member's scope in a team workspace, as resolveOwner makes it for their requests. */
export const teamScope = (id: string, role: WorkspaceScope['role']): WorkspaceScope => ({ id, role, personal: false });
