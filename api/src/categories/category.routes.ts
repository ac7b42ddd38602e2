import { categoryCreateSchema, categoryNameSchema, categoryUpdateSchema } from '@receipts/common';
import { Router } from 'express';
import { parseBody } from '../http-error.js';
import { requireUser } from '../owner.middleware.js';
import type { CategoryService } from './category.service.js';

/** /api/user/categories: the signed-in user's categories, the built-in six and their own. */
export function categoryRoutes(service: CategoryService): Router {
  const router = Router();
  router.use('/categories', requireUser);

  router.get('/categories', async (req, res) => {
    res.json({ categories: await service.list(req.session.userId!) });
  });

  router.post('/categories', async (req, res) => {
    const { name, datevAccount } = parseBody(categoryCreateSchema, req.body);
    res.status(201).json(await service.add(req.session.userId!, name, datevAccount ?? null));
  });

  router.patch('/categories/:name', async (req, res) => {
    const name = parseBody(categoryNameSchema, req.params.name);
    res.json(await service.update(req.session.userId!, name, parseBody(categoryUpdateSchema, req.body)));
  });

  router.delete('/categories/:name', async (req, res) => {
    await service.remove(req.session.userId!, parseBody(categoryNameSchema, req.params.name));
    res.status(204).end();
  });

  return router;
}
