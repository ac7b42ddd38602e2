import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Response } from 'express';
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';

/**
 * Failed sign-ins allowed within one window (SIGNIN_WINDOW_SECONDS). No count is kept per
 * account alone: any such count could be filled by strangers to shut the owner out.
 */
export const SIGN_IN_LIMITS = {
  /** One source (an IPv4 address, an IPv6 /64) at one account: what bounds guessing. */
  perSourceAccount: 10,
  /** One source at any accounts: one password tried on many accounts. */
  perSource: 30,
  /** One known device at the account it signed in to: the owner's budget, untouched by others' failures. */
  perDevice: 10,
  /** Failures at one account from unknown devices before every source trying it is slowed. */
  freeAccountFailures: 10,
} as const;

/**
 * How long a source waits, after a failure of its own, before trying an account that has had
 * `accountFailures` failures from unknown devices in the window: nothing up to the free ones,
 * then 1 s, doubling with each failure, up to `maxSeconds`.
 */
export function slowdownSeconds(accountFailures: number, maxSeconds: number): number {
  const over = accountFailures - SIGN_IN_LIMITS.freeAccountFailures;
  return over <= 0 ? 0 : Math.min(2 ** (over - 1), maxSeconds);
}

export interface SignInAttempt {
  /** The client's network (clientNetwork of its address). */
  source: string;
  /** The normalized address signed in to; unknown addresses are counted alike, so the limits tell nothing. */
  email: string;
  /** The known device the request proves for `email` (KnownDevices.recognize), or null. */
  device: string | null;
}

export type Admission =
  | { admitted: true; /** Records how the password check ended. */ settle(succeeded: boolean): Promise<void> }
  | { admitted: false; retryAfterMs: number };

export interface SignInLimiterOptions {
  windowSeconds: number;
  slowdownMaxSeconds: number;
}

/** A counter by name; Redis-backed in the service, in memory in unit tests. */
export type LimiterFactory = (name: string, points: number, seconds: number) => RateLimiterAbstract;

/**
 * Counts in Redis, shared by every api process; with Redis down, each process counts in memory
 * instead (rate-limiter-flexible's insurance), as the other auth limits do.
 */
export const redisLimiters =
  (redis: Redis, prefix: string): LimiterFactory =>
  (name, points, seconds) =>
    new RateLimiterRedis({
      storeClient: redis,
      keyPrefix: `${prefix}:signin:${name}`,
      points,
      duration: seconds,
      insuranceLimiter: new RateLimiterMemory({ points, duration: seconds }),
    });

/**
 * Failed sign-ins, counted so that strangers cannot shut an owner out (README, "Sign-in
 * limits"): a known device spends only its own budget; an unknown one is bounded per source and
 * per source-and-account, and an account under attack slows each source trying it (a wait after
 * the source's own failure) instead of refusing everyone. An attempt is counted before the
 * password is checked, so parallel requests cannot all slip under a bound; a success refunds it.
 */
export class SignInLimiter {
  private readonly perSource: RateLimiterAbstract;
  private readonly perPair: RateLimiterAbstract;
  private readonly perDevice: RateLimiterAbstract;
  private readonly accountFailures: RateLimiterAbstract;
  /** Pairs waiting out a slowdown: present until they may try again. */
  private readonly slowed: RateLimiterAbstract;

  constructor(
    make: LimiterFactory,
    private readonly options: SignInLimiterOptions,
  ) {
    const window = options.windowSeconds;
    this.perSource = make('source', SIGN_IN_LIMITS.perSource, window);
    this.perPair = make('pair', SIGN_IN_LIMITS.perSourceAccount, window);
    this.perDevice = make('device', SIGN_IN_LIMITS.perDevice, window);
    this.accountFailures = make('account', SIGN_IN_LIMITS.freeAccountFailures, window);
    this.slowed = make('slowed', 1, window);
  }

  async admit({ source, email, device }: SignInAttempt): Promise<Admission> {
    if (device) {
      const refused = await take(this.perDevice, device);
      if (refused) return refused;
      return {
        admitted: true,
        settle: async (succeeded) => {
          if (succeeded) await this.perDevice.delete(device);
        },
      };
    }
    const pair = `${source} ${email}`;
    const waiting = await this.slowed.get(pair);
    if (waiting) return { admitted: false, retryAfterMs: waiting.msBeforeNext };
    const refused = (await take(this.perSource, source)) ?? (await take(this.perPair, pair));
    if (refused) return refused;
    return {
      admitted: true,
      settle: async (succeeded) => {
        if (succeeded) {
          await Promise.all([this.perSource.reward(source, 1), this.perPair.delete(pair)]);
          return;
        }
        const wait = slowdownSeconds(await count(this.accountFailures, email), this.options.slowdownMaxSeconds);
        if (wait > 0) await this.slowed.block(pair, wait);
      },
    };
  }
}

/** Consumes a point of `key`: null within the limit, else the refusal. */
async function take(limiter: RateLimiterAbstract, key: string): Promise<Admission | null> {
  try {
    await limiter.consume(key);
    return null;
  } catch (err) {
    if (!(err instanceof RateLimiterRes)) throw err;
    return { admitted: false, retryAfterMs: err.msBeforeNext };
  }
}

/** Consumes a point of `key` and says how many it has, past the limit or not. */
async function count(limiter: RateLimiterAbstract, key: string): Promise<number> {
  try {
    return (await limiter.consume(key)).consumedPoints;
  } catch (err) {
    if (!(err instanceof RateLimiterRes)) throw err;
    return err.consumedPoints;
  }
}

const DEVICE_COOKIE = 'rdev';
const DEVICE_COOKIE_MAX_AGE_MS = 365 * 24 * 3600 * 1000;

/**
 * The owner's browsers: a cookie set at each successful sign-in, `<device id>.<HMAC of the id
 * and the address>`, so it proves a past sign-in to that address and no other, and cannot be
 * made without the server's secret.
 */
export class KnownDevices {
  private readonly key: Buffer;

  constructor(
    secret: string,
    private readonly secureCookie: boolean,
  ) {
    // A key of its own: a device cookie is never valid as anything else signed with the secret.
    this.key = createHmac('sha256', secret).update('sign-in device').digest();
  }

  private mac(id: string, email: string): Buffer {
    return createHmac('sha256', this.key).update(`${id}\n${email}`).digest();
  }

  /** The device id the request's cookies prove for `email`, or null. */
  recognize(cookieHeader: string | undefined, email: string): string | null {
    const value = cookieHeader
      ?.split(';')
      .map((c) => c.trim())
      .find((c) => c.startsWith(`${DEVICE_COOKIE}=`))
      ?.slice(DEVICE_COOKIE.length + 1);
    const [id, mac, extra] = value?.split('.') ?? [];
    if (!id || !mac || extra !== undefined) return null;
    const given = Buffer.from(mac, 'base64url');
    const expected = this.mac(id, email);
    return given.length === expected.length && timingSafeEqual(given, expected) ? id : null;
  }

  /** Marks the answer's browser as a known device of `email`, keeping its id when it was one. */
  remember(res: Response, email: string, id: string | null): void {
    const device = id ?? randomBytes(16).toString('base64url');
    res.cookie(DEVICE_COOKIE, `${device}.${this.mac(device, email).toString('base64url')}`, {
      httpOnly: true,
      sameSite: 'strict',
      secure: this.secureCookie,
      path: '/api/auth/login',
      maxAge: DEVICE_COOKIE_MAX_AGE_MS,
    });
  }
}
