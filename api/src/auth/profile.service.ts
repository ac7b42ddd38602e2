import {
  FREE_DAILY_LIMIT,
  isSubscriptionActive,
  planById,
  type SubscriptionView,
  type UserProfile,
} from '@receipts/common';
import type { BillingRepository, UserRow } from '@receipts/infra';
import type { AccountService } from './account.service.js';

/** What the screens read about the signed-in user (spec §3 user profile and subscription). */
export class ProfileService {
  constructor(
    private readonly billing: BillingRepository,
    private readonly accounts: AccountService,
  ) {}

  /** The account, with the state of the plan of the workspace it acts in (its own unless told). */
  async profile(user: UserRow, workspaceId = user.id): Promise<UserProfile> {
    const sub = await this.billing.subscription(workspaceId);
    return {
      username: user.username,
      email: user.email,
      userType: this.accounts.isAdmin(user) ? 'admin' : 'user',
      emailVerified: this.accounts.isEmailVerified(user),
      ...(sub ? { subscriptionStatus: sub.status } : {}),
    };
  }

  /** The plan of a workspace, as every member sees it (a member's uploads there share it). */
  async subscription(workspaceId: string, now = new Date()): Promise<SubscriptionView> {
    const sub = await this.billing.subscription(workspaceId);
    if (!sub) return { planName: 'Free', status: 'free', isActive: false, currentPeriodEnd: null, receiptLimit: FREE_DAILY_LIMIT };
    const active = isSubscriptionActive(sub, now);
    return {
      planName: planById(sub.planId)?.name ?? sub.planId,
      status: sub.status,
      isActive: active,
      currentPeriodEnd: sub.currentPeriodEnd.toISOString(),
      receiptLimit: active ? sub.receiptLimit : FREE_DAILY_LIMIT,
    };
  }
}
