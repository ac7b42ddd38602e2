import { randomBytes } from 'node:crypto';
import { intakeAddress, intakeToken, type IntakeAddressFormat, type IntakeAddressView } from '@receipts/common';
import type { IntakeRepository } from '@receipts/infra';
import { HttpError } from '../http-error.js';

const notSetUp = () => new HttpError(404, 'NOT_FOUND', 'E-mail intake is not set up on this server.');

/** A member's private intake address into the workspace they act in: shown, made anew (the old one stops at once) or turned off. */
export class IntakeAddressService {
  /** `format` is null when this deployment receives no mail. */
  constructor(
    private readonly intake: IntakeRepository,
    private readonly format: IntakeAddressFormat | null,
  ) {}

  async view(userId: string, workspaceId: string): Promise<IntakeAddressView> {
    if (!this.format) return { available: false, address: null };
    const token = await this.intake.tokenOf(userId, workspaceId);
    return { available: true, address: token ? intakeAddress(token, this.format) : null };
  }

  /** A new random address of the member into the workspace; mail to the one before is refused from now on. */
  async renew(userId: string, workspaceId: string): Promise<IntakeAddressView> {
    if (!this.format) throw notSetUp();
    const token = intakeToken(randomBytes(15));
    await this.intake.replace(userId, workspaceId, token);
    return { available: true, address: intakeAddress(token, this.format) };
  }

  async revoke(userId: string, workspaceId: string): Promise<IntakeAddressView> {
    if (!this.format) throw notSetUp();
    await this.intake.revoke(userId, workspaceId);
    return { available: true, address: null };
  }
}
