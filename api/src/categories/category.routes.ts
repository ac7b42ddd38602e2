import { categoryCreateSchema, categoryNameSchema, categoryUpdateSchema } from '@receipts/common';
import { Router } from 'express';
import { z } from 'zod';
import { requireUser } from '../owner.middleware.js';
import { validate } from '../validate.middleware.js';
import type { CategoryService } from './category.service.js';

const nameParams = z.object({ name: categoryNameSchema });

/** /api/user/categories: the signed-in user's categories, the built-in six and their own. */
export function categoryRoutes(service: CategoryService): Router {
  const router = Router();
  router.use('/categories', requireUser);

  router.get('/categories', async (req, res) => {
    res.json({ categories: await service.list(req.owner.userId!) });
  });

  router.post('/categories', validate({ body: categoryCreateSchema }), async (req, res) => {
    const { name, datevAccount } = req.body;
    res.status(201).json(await service.add(req.owner.userId!, name, datevAccount ?? null));
  });

  router.patch('/categories/:name', validate({ params: nameParams, body: categoryUpdateSchema }), async (req, res) => {
    res.json(await service.update(req.owner.userId!, req.params.name, req.body));
  });

  router.delete('/categories/:name', validate({ params: nameParams }), async (req, res) => {
    await service.remove(req.owner.userId!, req.params.name);
    res.status(204).end();
  });

  return router;
}
