/** How an e-mail address is compared everywhere (accounts, ADMIN_EMAILS, rate limits): trimmed, lower-cased. */
export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

/** What decides an account's standing: its stored address facts and role. */
export interface AccountFacts {
  email: string;
  userType: 'user' | 'admin';
  /** When a confirmation link (or a password reset, also mailed) proved the address; null: never. */
  emailVerifiedAt: Date | null;
  /** The account existed before addresses were confirmed: it counts as confirmed unless it could be an admin. */
  createdBeforeVerification: boolean;
}

/** Could be an admin: by role, or by an address ADMIN_EMAILS names (both sides normalised). */
export function isAdminCandidate(account: Pick<AccountFacts, 'email' | 'userType'>, adminEmails: readonly string[]): boolean {
  const email = normalizeEmail(account.email);
  return account.userType === 'admin' || adminEmails.some((admin) => normalizeEmail(admin) === email);
}

/**
 * Whether the account's address counts as confirmed: proven by a link, or an account from before
 * confirmation existed — except one that could be an admin, which must prove its address (whoever
 * first registered an admin address used to become admin).
 */
export function isEmailVerified(account: AccountFacts, adminEmails: readonly string[]): boolean {
  if (account.emailVerifiedAt) return true;
  return account.createdBeforeVerification && !isAdminCandidate(account, adminEmails);
}

/** Admin rights: an admin candidate whose address a link proved. */
export function isAdmin(account: AccountFacts, adminEmails: readonly string[]): boolean {
  return Boolean(account.emailVerifiedAt) && isAdminCandidate(account, adminEmails);
}
