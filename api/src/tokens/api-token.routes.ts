import { apiTokenCreatedSchema, apiTokenListSchema, createApiTokenSchema, type ApiTokenList } from '@receipts/common';
import type { UserRepository } from '@receipts/infra';
import { Router } from 'express';
import { currentUser, requireUser } from '../owner.middleware.js';
import { route } from '../route-spec.js';
import { idParams } from '../validate.middleware.js';
import type { ApiTokenService } from './api-token.service.js';

/**
 * /api/user/tokens: the signed-in account's personal access tokens, listed (never their text),
 * made (the text answered this once) and revoked. No scope opens them: a token cannot make or
 * revoke tokens. Sign-in is checked before the request's parts (`receive`), so a visitor is told
 * to sign in before anything of the request is looked at.
 */
export function apiTokenRoutes(tokens: ApiTokenService, users: UserRepository): Router {
  const router = Router();
  const spec = { tag: 'account', scope: null, caller: 'account' } as const;

  const list = route({ ...spec, summary: 'Your personal access tokens (never their text)', receive: [requireUser], answers: { 200: apiTokenListSchema } });
  router.get('/tokens', list, async (req, res) => {
    const answer: ApiTokenList = { tokens: await tokens.list(req.owner.userId!) };
    res.json(answer);
  });

  const create = route({
    ...spec,
    summary: 'Make a personal access token',
    description: 'The answer holds the token’s text, the only time it is shown. The account’s address must be confirmed.',
    receive: [currentUser(users)],
    body: createApiTokenSchema,
    answers: { 201: apiTokenCreatedSchema },
    errors: { 403: ['EMAIL_NOT_VERIFIED'], 409: ['CONFLICT'] },
  });
  router.post('/tokens', create, async (req, res) => {
    res.status(201).json(await tokens.create(req.user!, req.body));
  });

  const revoke = route({
    ...spec,
    summary: 'Revoke a personal access token: the next request with it is refused',
    receive: [requireUser],
    params: idParams,
    answers: { 204: null },
    errors: { 404: ['NOT_FOUND'] },
  });
  router.delete('/tokens/:id', revoke, async (req, res) => {
    await tokens.revoke(req.owner.userId!, req.params.id);
    res.status(204).end();
  });

  return router;
}
