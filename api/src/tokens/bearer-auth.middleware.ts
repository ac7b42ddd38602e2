import { API_TOKEN_MESSAGES } from '@receipts/common';
import type { Logger } from '@receipts/infra';
import type { RequestHandler } from 'express';
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { tooManyAttempts } from '../security.js';
import { TokenRefusedError, type ApiTokenService, type AuthenticatedToken } from './api-token.service.js';

/** The credentials of `Authorization: Bearer <token>` (the scheme in any case); null when the request names no bearer token. */
export function bearerCredentials(authorization: string | undefined): string | null {
  const match = /^Bearer(?:\s+(.*))?$/i.exec(authorization?.trim() ?? '');
  return match ? (match[1] ?? '').trim() : null;
}

/** Requests one token may make per minute, counted in Redis across api processes (in memory per process while Redis is down). */
export function tokenRateLimiter(redis: Redis, prefix: string, perMinute: number): RateLimiterAbstract {
  return new RateLimiterRedis({
    storeClient: redis,
    keyPrefix: `${prefix}:rl:token`,
    points: perMinute,
    duration: 60,
    insuranceLimiter: new RateLimiterMemory({ points: perMinute, duration: 60 }),
  });
}

/**
 * Mounted on /api before the CSRF header check and the session: a request with
 * `Authorization: Bearer` is the token's alone. Its cookies are never read and no session is made
 * (the session middleware and resolveOwner pass over a request with `req.token`), nor is
 * X-Requested-With asked (a browser sends no Authorization header cross-site without a CORS
 * preflight, which this api never grants). The owner is the token's account; a token that is
 * unknown, revoked, expired or of a deleted account is 401 with `WWW-Authenticate: Bearer`, one
 * past its rate 429 with Retry-After. Requests without a bearer token pass untouched.
 */
export function bearerAuth(tokens: ApiTokenService, limiter: RateLimiterAbstract, log: Logger): RequestHandler {
  /** Counts a request of the token; the milliseconds until it may make another when it is past its rate, else null. */
  const overRate = async (tokenId: string): Promise<number | null> => {
    try {
      await limiter.consume(tokenId);
      return null;
    } catch (err) {
      if (err instanceof RateLimiterRes) return err.msBeforeNext;
      log.warn({ err }, 'token rate limiter failed; request let through');
      return null;
    }
  };
  return async (req, res, next) => {
    const credentials = bearerCredentials(req.get('Authorization'));
    if (credentials === null) return next();
    let token: AuthenticatedToken;
    try {
      token = await tokens.authenticate(credentials);
    } catch (err) {
      if (err instanceof TokenRefusedError) res.set('WWW-Authenticate', 'Bearer error="invalid_token"');
      return next(err);
    }
    const wait = await overRate(token.id);
    if (wait !== null) return next(tooManyAttempts(res, wait, API_TOKEN_MESSAGES.tooManyRequests(limiter.points, wait)));
    req.token = token;
    req.owner = { userId: token.userId, anonId: null, clientIp: req.ip ?? null };
    next();
  };
}
