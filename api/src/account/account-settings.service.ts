import { ACCOUNT_MESSAGES } from '@receipts/common';
import type { UserRepository, UserRow } from '@receipts/infra';
import type { AccountService } from '../auth/account.service.js';
import { hashPassword, verifyPassword } from '../auth/password.js';
import { HttpError } from '../http-error.js';

/** The account page's changes: password and e-mail address, each confirmed with the current password. */
export class AccountSettingsService {
  constructor(
    private readonly users: UserRepository,
    /** Mails the new address its confirmation link, and the old one a notice of the change. */
    private readonly accounts: Pick<AccountService, 'sendConfirmation' | 'sendChangeNotice'>,
  ) {}

  /** The current password, asked again so a session left open cannot take the account over. */
  private async confirm(user: UserRow, currentPassword: string): Promise<void> {
    if (!(await verifyPassword(currentPassword, user.passwordHash))) throw new HttpError(403, 'INVALID_CREDENTIALS', ACCOUNT_MESSAGES.wrongPassword);
  }

  /** A new password; every other session of the account is signed out, the one asking (`sid`) stays, and the address is told. */
  async changePassword(user: UserRow, currentPassword: string, password: string, sid: string, links: string): Promise<void> {
    await this.confirm(user, currentPassword);
    await this.users.changePassword(user.id, await hashPassword(password), sid);
    await this.accounts.sendChangeNotice(user.email, { kind: 'password' }, links);
  }

  /**
   * Moves the account to another address, unless that address has an account (said without
   * saying whose): every other session is signed out, the old address is told, the new one gets
   * its link. Answers the account as it now stands (unconfirmed, so no admin rights yet).
   * `links`: what the mails' links start with.
   */
  async changeEmail(user: UserRow, email: string, currentPassword: string, sid: string, links: string): Promise<UserRow> {
    if (email === user.email) throw new HttpError(400, 'VALIDATION_FAILED', ACCOUNT_MESSAGES.emailUnchanged);
    await this.confirm(user, currentPassword);
    if (!(await this.users.changeEmail(user.id, email, sid))) throw new HttpError(400, 'VALIDATION_FAILED', ACCOUNT_MESSAGES.emailTaken);
    const moved = await this.users.byId(user.id);
    if (!moved) throw new HttpError(401, 'UNAUTHENTICATED', 'Authentication required');
    await this.accounts.sendConfirmation(moved, links);
    await this.accounts.sendChangeNotice(user.email, { kind: 'email', newEmail: moved.email }, links);
    return moved;
  }
}
