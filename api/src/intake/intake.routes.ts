import { Router } from 'express';
import type { IntakeAddressService } from './intake-address.service.js';

/** /api/intake (signed-in only): the account's private intake address; POST makes a new one, DELETE turns it off. */
export function intakeRoutes(addresses: IntakeAddressService): Router {
  const router = Router();

  router.get('/', async (req, res) => {
    res.json(await addresses.view(req.owner.userId!));
  });

  router.post('/', async (req, res) => {
    res.json(await addresses.renew(req.owner.userId!));
  });

  router.delete('/', async (req, res) => {
    res.json(await addresses.revoke(req.owner.userId!));
  });

  return router;
}
