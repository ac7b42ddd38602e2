import {
  FREE_DAILY_LIMIT,
  isSubscriptionActive,
  planById,
  type SubscriptionView,
  type UserProfile,
} from '@receipts/common';
import { schema, type Database, type UserRow } from '@receipts/infra';
import { eq } from 'drizzle-orm';
import type { AccountService } from './account.service.js';

/** What the screens read about the signed-in user (spec §3 user profile and subscription). */
export class ProfileService {
  constructor(
    private readonly db: Database,
    private readonly accounts: AccountService,
  ) {}

  private async subscriptionRow(userId: string) {
    const [row] = await this.db.select().from(schema.subscriptions).where(eq(schema.subscriptions.userId, userId));
    return row ?? null;
  }

  async profile(user: UserRow): Promise<UserProfile> {
    const sub = await this.subscriptionRow(user.id);
    return {
      username: user.username,
      email: user.email,
      userType: this.accounts.isAdmin(user) ? 'admin' : 'user',
      ...(sub ? { subscriptionStatus: sub.status } : {}),
    };
  }

  async subscription(userId: string, now = new Date()): Promise<SubscriptionView> {
    const sub = await this.subscriptionRow(userId);
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
