import { USER_MESSAGES, type CataloguePlan } from '@receipts/common';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { profileStatus } from '../lib/account-api.js';
import { pendingSubscription } from '../lib/browser-storage.js';
import { loginPathFor, subscribePath } from '../lib/login-redirect.js';
import { toast } from '../lib/toast.js';

/**
 * Spec §4 pricing flow: Upgrade checks the profile; 401 keeps the plan and signs in first, OK or
 * a network failure goes to the subscribe page, anything else says something went wrong.
 */
export function useUpgrade(): { upgrade: (plan: CataloguePlan) => Promise<void>; busyPlan: string | null } {
  const navigate = useNavigate();
  const [busyPlan, setBusyPlan] = useState<string | null>(null);
  const upgrade = async (plan: CataloguePlan) => {
    if (!plan.stripePriceId) {
      toast({ title: 'Plans are loading', description: 'Please try again in a moment.', variant: 'destructive' });
      return;
    }
    const target = subscribePath(plan.id, plan.stripePriceId);
    setBusyPlan(plan.id);
    try {
      const status = await profileStatus();
      if (status === 401) {
        pendingSubscription.set({ planId: plan.id, stripePriceId: plan.stripePriceId });
        navigate(loginPathFor(target));
      } else if (status >= 200 && status < 300) {
        navigate(target);
      } else {
        toast({ title: USER_MESSAGES.somethingWentWrong, variant: 'destructive' });
      }
    } catch {
      navigate(target);
    } finally {
      setBusyPlan(null);
    }
  };
  return { upgrade, busyPlan };
}
