import { z } from 'zod';

/**
 * What a personal access token may do: read receipts and uploads; upload, correct and delete
 * them; export. A route that names none of these is closed to tokens (account, admin, billing,
 * the tokens themselves): only a browser session reaches it.
 */
export const TOKEN_SCOPES = ['receipts:read', 'receipts:write', 'export'] as const;
export const tokenScopeSchema = z.enum(TOKEN_SCOPES);
export type TokenScope = z.infer<typeof tokenScopeSchema>;

/** What a caller with a token is told when a route refuses it. */
export const API_TOKEN_MESSAGES = {
  routeClosedToTokens: 'Access tokens cannot call this route. Sign in to the web app to use it.',
  missingScope: (scope: TokenScope) => `This access token does not have the ${scope} scope this route needs.`,
} as const;
