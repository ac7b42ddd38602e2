import { MEMBERSHIP_MESSAGES, messageAnswerSchema, switchWorkspaceSchema, workspaceListSchema, workspaceNameBodySchema, workspaceViewSchema } from '@receipts/common';
import type { UserRepository } from '@receipts/infra';
import { Router } from 'express';
import { currentUser, requireUser, workspaceOf } from '../owner.middleware.js';
import { route } from '../route-spec.js';
import type { WorkspaceDeletionService } from './workspace-deletion.service.js';
import type { WorkspaceService } from './workspace.service.js';

/**
 * /api/workspaces: the signed-in account's workspaces for the switcher, a new one, the one its
 * requests act in (kept in the session; a script names it with X-Workspace-Id instead) and its
 * name. Sign-in is checked before the request's parts.
 */
export function workspaceRoutes(service: WorkspaceService, users: UserRepository, deletion: WorkspaceDeletionService): Router {
  const router = Router();
  const spec = { tag: 'workspaces', caller: 'account' } as const;

  const list = route({ ...spec, scope: 'receipts:read', summary: 'Your workspaces, and the one requests act in', receive: [requireUser], answers: { 200: workspaceListSchema } });
  router.get('/', list, async (req, res) => {
    res.json(await service.list(req.owner.userId!, workspaceOf(req).id));
  });

  const create = route({
    ...spec,
    scope: null,
    summary: 'Make a team workspace; you are its owner',
    description: 'The account’s address must be confirmed. Switch to it to act in it.',
    receive: [currentUser(users)],
    body: workspaceNameBodySchema,
    answers: { 201: workspaceViewSchema },
    errors: { 403: ['EMAIL_NOT_VERIFIED'], 409: ['CONFLICT'] },
  });
  router.post('/', create, async (req, res) => {
    res.status(201).json(await service.create(req.user!, req.body.name));
  });

  const switchTo = route({
    ...spec,
    scope: null,
    summary: 'Switch the workspace this session acts in',
    receive: [requireUser],
    body: switchWorkspaceSchema,
    answers: { 200: workspaceListSchema },
    errors: { 404: ['NOT_FOUND'] },
  });
  router.put('/current', switchTo, async (req, res) => {
    const { workspace } = await service.membership(req.owner.userId!, req.body.workspaceId);
    // The account's own workspace is the default: the session keeps no id for it.
    if (workspace.personalOf === req.owner.userId) delete req.session.workspaceId;
    else req.session.workspaceId = workspace.id;
    res.json(await service.list(req.owner.userId!, workspace.id));
  });

  const rename = route({
    ...spec,
    scope: null,
    workspace: 'settings:change',
    summary: 'Rename the workspace requests act in',
    receive: [requireUser],
    body: workspaceNameBodySchema,
    answers: { 200: workspaceViewSchema },
  });
  router.patch('/current', rename, async (req, res) => {
    res.json(await service.rename(req.owner.userId!, workspaceOf(req).id, req.body.name));
  });

  const remove = route({
    ...spec,
    scope: null,
    workspace: 'workspace:delete',
    summary: 'Delete the team workspace requests act in',
    description: 'The owner only; a personal workspace goes only with its account. Every receipt, upload and setting in it is deleted; its members act in their own workspaces from then on.',
    receive: [requireUser],
    answers: { 200: messageAnswerSchema },
  });
  router.delete('/current', remove, async (req, res) => {
    const workspace = workspaceOf(req);
    await deletion.delete(req.owner.userId!, workspace);
    if (req.session.workspaceId === workspace.id) delete req.session.workspaceId;
    res.json({ message: MEMBERSHIP_MESSAGES.deleted });
  });

  return router;
}
