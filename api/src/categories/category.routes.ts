import { categoryCreateSchema, categoryListSchema, categoryNameSchema, categoryUpdateSchema, categoryViewSchema } from '@receipts/common';
import { Router } from 'express';
import { z } from 'zod';
import { actingOf, requireUser, workspaceOf } from '../owner.middleware.js';
import { route } from '../route-spec.js';
import type { CategoryService } from './category.service.js';

const nameParams = z.object({ name: categoryNameSchema });

/** /api/user/categories: the categories of the workspace the signed-in user acts in, the built-in six and its own. */
export function categoryRoutes(service: CategoryService): Router {
  const router = Router();
  router.use('/categories', requireUser);

  router.get(
    '/categories',
    route({
      summary: 'The categories receipts are filed under',
      description: 'The six built in, then the user’s own, each with how many receipts it holds.',
      tag: 'categories',
      scope: 'receipts:read',
      caller: 'account',
      workspace: 'receipts:own',
      answers: { 200: categoryListSchema },
    }),
    async (req, res) => {
      res.json({ categories: await service.list(workspaceOf(req).id) });
    },
  );

  router.post(
    '/categories',
    route({
      summary: 'Add a category of one’s own',
      description: 'With the DATEV expense account its receipts are booked to, if any (as many digits as the DATEV settings’ account length).',
      tag: 'categories',
      scope: 'receipts:write',
      caller: 'account',
      workspace: 'settings:change',
      body: categoryCreateSchema,
      answers: { 201: categoryViewSchema },
      errors: { 409: ['CONFLICT'] },
    }),
    async (req, res) => {
      const { name, datevAccount } = req.body;
      res.status(201).json(await service.add(actingOf(req), name, datevAccount ?? null));
    },
  );

  router.patch(
    '/categories/:name',
    route({
      summary: 'Rename a category of one’s own, or set its DATEV account',
      description: 'Its receipts and rules follow a new name. The built-in ones cannot be changed.',
      tag: 'categories',
      scope: 'receipts:write',
      caller: 'account',
      workspace: 'settings:change',
      params: nameParams,
      body: categoryUpdateSchema,
      answers: { 200: categoryViewSchema },
      errors: { 404: ['NOT_FOUND'], 409: ['CONFLICT'] },
    }),
    async (req, res) => {
      res.json(await service.update(actingOf(req), req.params.name, req.body));
    },
  );

  router.delete(
    '/categories/:name',
    route({
      summary: 'Delete a category of one’s own',
      description: 'Its receipts go to `other`. The built-in ones cannot be deleted.',
      tag: 'categories',
      scope: 'receipts:write',
      caller: 'account',
      workspace: 'settings:change',
      params: nameParams,
      answers: { 204: null },
      errors: { 404: ['NOT_FOUND'] },
    }),
    async (req, res) => {
      await service.remove(actingOf(req), req.params.name);
      res.status(204).end();
    },
  );

  return router;
}
