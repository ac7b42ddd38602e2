import type { ClientConfig } from '@receipts/common';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { useProfile } from '../hooks/use-account.js';
import { initAnalytics, setAccountState, trackPageView } from '../lib/analytics.js';
import { configKey } from '../lib/config-api.js';

/** Analytics: the path on every route change and the account state as user properties (spec §1). */
export function AnalyticsReporter() {
  const { pathname } = useLocation();
  const { profile, loading } = useProfile();
  const config = useQuery<ClientConfig | null>({ queryKey: configKey, meta: { silent: true } });
  const id = config.data?.analyticsMeasurementId ?? null;
  useEffect(() => {
    initAnalytics(id);
  }, [id]);
  useEffect(() => {
    if (!loading) setAccountState(profile);
  }, [id, loading, profile]);
  useEffect(() => {
    if (id) trackPageView(pathname);
  }, [id, pathname]);
  return null;
}

