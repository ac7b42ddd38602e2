import type { WorkspaceRole } from '@receipts/common';
import { schema, type Database } from '@receipts/infra';

/**
 * A team workspace written straight to the database (test set-up, no invitations): its owner and
 * its other members in their roles. Its id.
 */
export async function teamWorkspace(db: Database, owner: string, members: ReadonlyArray<{ userId: string; role: Exclude<WorkspaceRole, 'owner'> }> = [], name = 'Team'): Promise<string> {
  const [workspace] = await db.insert(schema.workspaces).values({ name }).returning({ id: schema.workspaces.id });
  await db.insert(schema.workspaceMembers).values([{ workspaceId: workspace!.id, userId: owner, role: 'owner' as const }, ...members.map((m) => ({ workspaceId: workspace!.id, ...m }))]);
  return workspace!.id;
}
