import { normalizeEmail, tooManyAttemptsMessage } from '@receipts/common';
import type { Logger } from '@receipts/infra';
import type { RequestHandler, Response } from 'express';
import helmet from 'helmet';
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { HttpError } from './http-error.js';
import { clientNetwork } from './client-network.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * CSRF defence (spec §7): a cross-site form or image cannot set X-Requested-With, and a
 * cross-site fetch that sets it needs a CORS preflight this api never grants. A request
 * authenticated by an access token (`req.token`, bearerAuth) carries no cookie to abuse: a
 * browser adds no Authorization header cross-site either.
 */
export function requireXhrHeader(exemptPaths: string[]): RequestHandler {
  return (req, _res, next) => {
    if (req.token || SAFE_METHODS.has(req.method) || exemptPaths.includes(req.path)) return next();
    if (req.get('X-Requested-With') !== 'XMLHttpRequest') {
      return next(new HttpError(403, 'FORBIDDEN', 'Missing X-Requested-With header.'));
    }
    next();
  };
}

/** Where the analytics tag loads from and reports to, allowed only when analytics are configured. */
const ANALYTICS_SCRIPTS = ['https://www.googletagmanager.com'];
const ANALYTICS_HOSTS = ['https://*.google-analytics.com', 'https://*.analytics.google.com', 'https://*.googletagmanager.com'];

export function securityHeaders(options: { analytics?: boolean; publicUrl: string }): RequestHandler {
  const analytics = options.analytics ?? false;
  return helmet({
    contentSecurityPolicy: {
      directives: {
        // Upgrading only makes sense where https is served: over plain HTTP on a LAN address the
        // browser would ask for https URLs no one answers, and the app would stay blank.
        'upgrade-insecure-requests': options.publicUrl.startsWith('https:') ? [] : null,
        'script-src': ["'self'", 'https://js.stripe.com', ...(analytics ? ANALYTICS_SCRIPTS : [])],
        'frame-src': ["'self'", 'https://js.stripe.com', 'https://hooks.stripe.com'],
        'connect-src': ["'self'", 'https://api.stripe.com', ...(analytics ? ANALYTICS_HOSTS : [])],
        'img-src': ["'self'", 'data:', 'blob:', ...(analytics ? ANALYTICS_HOSTS : [])],
      },
    },
  });
}

const WINDOW_SECONDS = 15 * 60;

/** The answer to an attempt refused for `msBeforeNext` more: 429 with Retry-After. */
export function tooManyAttempts(res: Response, msBeforeNext: number, message = tooManyAttemptsMessage(msBeforeNext)): HttpError {
  res.set('Retry-After', String(Math.max(1, Math.ceil(msBeforeNext / 1000))));
  return new HttpError(429, 'RATE_LIMITED', message);
}

/**
 * Attempts one client address, one e-mail address when the body names one, and one signed-in
 * account may make per window.
 */
export interface RateLimits {
  perAddress: number;
  perEmail?: number;
  perAccount?: number;
}

/**
 * Attempts at one auth route (`name`), counted in Redis (shared by every api process) per
 * client network (clientNetwork: an IPv6 client by its /64) and per e-mail address. Each route counts on its own, so requests at one (a
 * stranger asking for reset links) never use up another (the owner signing in). With Redis
 * down, an in-memory count per process takes over.
 */
export function authRateLimit(redis: Redis, prefix: string, log: Logger, name: string, limits: RateLimits): RequestHandler {
  const make = (key: string, points: number) =>
    new RateLimiterRedis({
      storeClient: redis,
      keyPrefix: `${prefix}:rl:${name}:${key}`,
      points,
      duration: WINDOW_SECONDS,
      insuranceLimiter: new RateLimiterMemory({ points, duration: WINDOW_SECONDS }),
    });
  const perAddress = make('ip', limits.perAddress);
  const perEmail = limits.perEmail ? make('email', limits.perEmail) : null;
  const perAccount = limits.perAccount ? make('account', limits.perAccount) : null;
  return async (req, res, next) => {
    const email = typeof req.body?.email === 'string' ? normalizeEmail(req.body.email) : null;
    const userId = req.owner?.userId;
    try {
      await perAddress.consume(clientNetwork(req.ip ?? 'unknown'));
      if (email && perEmail) await perEmail.consume(email);
      if (userId && perAccount) await perAccount.consume(userId);
      next();
    } catch (err) {
      if (!(err instanceof RateLimiterRes)) {
        log.warn({ err }, 'rate limiter failed; request let through');
        return next();
      }
      next(tooManyAttempts(res, err.msBeforeNext));
    }
  };
}
