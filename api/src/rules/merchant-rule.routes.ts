import { merchantRulePatchSchema } from '@receipts/common';
import { Router } from 'express';
import { requireUser } from '../owner.middleware.js';
import { idParams, validate } from '../validate.middleware.js';
import type { MerchantRuleService } from './merchant-rule.service.js';

/** /api/user/rules: the signed-in user's learned rules (merchant names and categories). */
export function merchantRuleRoutes(service: MerchantRuleService): Router {
  const router = Router();
  router.use('/rules', requireUser);

  router.get('/rules', async (req, res) => {
    res.json({ rules: await service.list(req.owner.userId!) });
  });

  router.patch('/rules/:id', validate({ body: merchantRulePatchSchema, params: idParams }), async (req, res) => {
    res.json(await service.update(req.owner.userId!, req.params.id, req.body.value));
  });

  router.delete('/rules/:id', validate({ params: idParams }), async (req, res) => {
    await service.remove(req.owner.userId!, req.params.id);
    res.status(204).end();
  });

  return router;
}
