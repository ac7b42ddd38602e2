import { createApiTokenSchema, type ApiTokenList } from '@receipts/common';
import type { UserRepository } from '@receipts/infra';
import { Router } from 'express';
import { currentUser, requireUser } from '../owner.middleware.js';
import { idParams, validate } from '../validate.middleware.js';
import type { ApiTokenService } from './api-token.service.js';

/**
 * /api/user/tokens: the signed-in account's personal access tokens, listed (never their text),
 * made (the text answered this once) and revoked. Closed to token requests: a token cannot make
 * or revoke tokens.
 */
export function apiTokenRoutes(tokens: ApiTokenService, users: UserRepository): Router {
  const router = Router();

  router.get('/tokens', requireUser, async (req, res) => {
    const list: ApiTokenList = { tokens: await tokens.list(req.owner.userId!) };
    res.json(list);
  });

  router.post('/tokens', currentUser(users), validate({ body: createApiTokenSchema }), async (req, res) => {
    res.status(201).json(await tokens.create(req.user!, req.body));
  });

  router.delete('/tokens/:id', requireUser, validate({ params: idParams }), async (req, res) => {
    await tokens.revoke(req.owner.userId!, req.params.id);
    res.status(204).end();
  });

  return router;
}
