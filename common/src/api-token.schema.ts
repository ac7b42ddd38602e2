import { z } from 'zod';
import { safeText } from './control-characters.rule.js';

/**
 * What a personal access token may do: read receipts and uploads; upload, correct and delete
 * them; export. A route that names none of these is closed to tokens (account, admin, billing,
 * the tokens themselves): only a browser session reaches it.
 */
export const TOKEN_SCOPES = ['receipts:read', 'receipts:write', 'export'] as const;
export const tokenScopeSchema = z.enum(TOKEN_SCOPES);
export type TokenScope = z.infer<typeof tokenScopeSchema>;

/** What each scope lets a token do, as the account page offers it. */
export const TOKEN_SCOPE_LABELS: Record<TokenScope, string> = {
  'receipts:read': 'Read receipts and uploads',
  'receipts:write': 'Upload, correct and delete receipts',
  export: 'Download exports',
};

export const TOKEN_NAME_MAX = 100;
export const TOKEN_EXPIRY_MAX_DAYS = 365;
/** Tokens an account may hold at once (revoked ones not counted): enough for every script, a bound on what a taken-over session can leave behind. */
export const ACTIVE_TOKENS_MAX = 20;

/**
 * The token's text: `rct_<prefix>_<secret>`. The prefix (6 random bytes) is shown in the token
 * list and finds the stored row; the secret is 32 random bytes. Only the SHA-256 of the whole
 * text is stored.
 */
export const API_TOKEN_PATTERN = /^rct_([A-Za-z0-9_-]{8})_[A-Za-z0-9_-]{43}$/;

/** Messages of the tokens, said by the api and shown by the web. */
export const API_TOKEN_MESSAGES = {
  /** A token's request to a route no scope opens (route-spec.ts). */
  routeClosedToTokens: 'Access tokens cannot call this route. Sign in to the web app to use it.',
  missingScope: (scope: TokenScope) => `This access token does not have the ${scope} scope this route needs.`,
  nameRequired: 'Name the token.',
  nameTooLong: `A token name is at most ${TOKEN_NAME_MAX} characters.`,
  scopesRequired: 'Choose at least one thing the token may do.',
  expiryInvalid: `A token expires after 1 to ${TOKEN_EXPIRY_MAX_DAYS} days, or never.`,
  tooMany: `An account holds at most ${ACTIVE_TOKENS_MAX} tokens. Revoke one you no longer use first.`,
  confirmBeforeCreating: 'Confirm your e-mail address before creating access tokens: follow the link we e-mailed you, or send a new one from your dashboard.',
  notFound: 'No such access token.',
  shownOnce: 'Copy this token now: it will not be shown again.',
  /** A request with `Authorization: Bearer` whose token is not one we made (malformed or unknown). */
  unknown: 'This access token is not valid. Check that you copied it whole, or create a new one on your account page.',
  revoked: 'This access token has been revoked. Create a new one on your account page.',
  expired: 'This access token has expired. Create a new one on your account page.',
  /** 429 to a token past TOKEN_RATE_LIMIT_PER_MINUTE. */
  tooManyRequests: (perMinute: number, msBeforeNext: number) =>
    `This access token made more than ${perMinute} requests in a minute. Please try again in ${Math.max(1, Math.ceil(msBeforeNext / 1000))} seconds.`,
} as const;

/** POST /api/user/tokens: a name, what the token may do (at least one scope) and how many days it lasts (none: until revoked). */
export const createApiTokenSchema = z.object({
  name: safeText({ message: API_TOKEN_MESSAGES.nameRequired }).trim().min(1, API_TOKEN_MESSAGES.nameRequired).max(TOKEN_NAME_MAX, API_TOKEN_MESSAGES.nameTooLong),
  scopes: z
    .array(tokenScopeSchema, { message: API_TOKEN_MESSAGES.scopesRequired })
    .min(1, API_TOKEN_MESSAGES.scopesRequired)
    // Each scope once, in the order of TOKEN_SCOPES, whatever order or repeats were sent.
    .transform((scopes) => TOKEN_SCOPES.filter((scope) => scopes.includes(scope))),
  expiresInDays: z.int({ message: API_TOKEN_MESSAGES.expiryInvalid }).min(1, API_TOKEN_MESSAGES.expiryInvalid).max(TOKEN_EXPIRY_MAX_DAYS, API_TOKEN_MESSAGES.expiryInvalid).nullish(),
});
export type CreateApiTokenInput = z.input<typeof createApiTokenSchema>;
/** The body as the route hands it on: the name trimmed, each scope once in TOKEN_SCOPES' order. */
export type CreateApiTokenBody = z.output<typeof createApiTokenSchema>;

/** A token as the account's list shows it: never its secret or hash. Times are ISO strings; null: never used, never expires. */
export const apiTokenViewSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  /** The token's visible part, `rct_<prefix>`. */
  prefix: z.string(),
  scopes: z.array(tokenScopeSchema),
  createdAt: z.iso.datetime(),
  lastUsedAt: z.iso.datetime().nullable(),
  expiresAt: z.iso.datetime().nullable(),
});
export type ApiTokenView = z.infer<typeof apiTokenViewSchema>;

/** GET /api/user/tokens. */
export const apiTokenListSchema = z.object({ tokens: z.array(apiTokenViewSchema) });
export type ApiTokenList = z.infer<typeof apiTokenListSchema>;

/** POST /api/user/tokens' answer (201): the token's text, this once, beside its view. */
export const apiTokenCreatedSchema = apiTokenViewSchema.extend({ token: z.string().regex(API_TOKEN_PATTERN) });
export type ApiTokenCreated = z.infer<typeof apiTokenCreatedSchema>;
