import { WORKSPACE_MESSAGES, type WorkspaceScope } from '@receipts/common';
import type { WorkspaceRepository } from '@receipts/infra';
import { notFound } from '../http-error.js';
import type { UploadService } from '../uploads/upload.service.js';

/** Deleting a team workspace: its running jobs, its rows (by cascade), then its uploads' original files, as account deletion does. */
export class WorkspaceDeletionService {
  constructor(
    private readonly workspaces: Pick<WorkspaceRepository, 'deleteTeam'>,
    private readonly uploads: Pick<UploadService, 'stopAll' | 'deleteOriginals'>,
  ) {}

  /** Deletes the team workspace `workspace` (the owner's, as the route checked); its members' sessions fall back to their own. */
  async delete(ownerId: string, workspace: WorkspaceScope): Promise<void> {
    // Every upload of the workspace: the owner sees them all.
    await this.uploads.stopAll({ userId: ownerId, anonId: null, workspace });
    const uploadIds = await this.workspaces.deleteTeam(workspace.id);
    if (!uploadIds) throw notFound(WORKSPACE_MESSAGES.notFound);
    await this.uploads.deleteOriginals(uploadIds);
  }
}
