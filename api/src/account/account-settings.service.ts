import { ACCOUNT_MESSAGES } from '@receipts/common';
import type { UserRepository, UserRow } from '@receipts/infra';
import type { AccountService } from '../auth/account.service.js';
import { hashPassword, verifyPassword } from '../auth/password.js';
import { HttpError } from '../http-error.js';

/** The account page's changes: password and e-mail address, each confirmed with the current password. */
export class AccountSettingsService {
  constructor(
    private readonly users: UserRepository,
    /** Mails the new address its confirmation link. */
    private readonly accounts: Pick<AccountService, 'sendConfirmation'>,
  ) {}

  /** The current password, asked again so a session left open cannot take the account over. */
  private async confirm(user: UserRow, currentPassword: string): Promise<void> {
    if (!(await verifyPassword(currentPassword, user.passwordHash))) throw new HttpError(403, 'INVALID_CREDENTIALS', ACCOUNT_MESSAGES.wrongPassword);
  }

  /** A new password; every other session of the account is signed out, the one asking (`sid`) stays. */
  async changePassword(user: UserRow, currentPassword: string, password: string, sid: string): Promise<void> {
    await this.confirm(user, currentPassword);
    await this.users.changePassword(user.id, await hashPassword(password), sid);
  }

  /** Moves the account to another address, unless that address has an account (said without saying whose). */
  async changeEmail(user: UserRow, email: string, currentPassword: string): Promise<void> {
    if (email === user.email) throw new HttpError(400, 'VALIDATION_FAILED', ACCOUNT_MESSAGES.emailUnchanged);
    await this.confirm(user, currentPassword);
    if (!(await this.users.changeEmail(user.id, email))) throw new HttpError(400, 'VALIDATION_FAILED', ACCOUNT_MESSAGES.emailTaken);
    await this.accounts.sendConfirmation({ ...user, email });
  }
}
