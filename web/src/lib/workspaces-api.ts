/** Reads of the signed-in account's workspaces; each key is the url the shared query function reads (spec §7). */
export const workspaceKeys = {
  /** `{ workspaces: WorkspaceView[], currentId }`: every workspace of the account, and the one requests act in. */
  list: ['/api/workspaces'] as const,
};
