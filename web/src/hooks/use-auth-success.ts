import { useNavigate, useSearchParams } from 'react-router-dom';
import { pendingSubscription } from '../lib/browser-storage.js';
import { loginDestination } from '../lib/login-redirect.js';
import { useRefreshAccount } from './use-account.js';

/** After sign-in or registration: account caches refresh, then spec §4's destination. */
export function useAuthSuccess() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const refresh = useRefreshAccount();
  return async () => {
    await refresh();
    // Signing in uses up the pending plan whichever way it goes, so it cannot surprise a later sign-in.
    navigate(loginDestination(params.get('redirect'), pendingSubscription.take()), { replace: true });
  };
}
