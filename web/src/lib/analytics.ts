import type { ReceiptView } from '@receipts/common';
import {
  accountProperties,
  exportPayload,
  ocrResultPayload,
  pricingPayload,
  subscriptionPayload,
  uploadPayload,
  type UploadMethod,
} from './analytics-events.js';

type Gtag = (...args: unknown[]) => void;
declare global {
  interface Window {
    dataLayer?: unknown[];
    gtag?: Gtag;
  }
}

let enabled = false;
let measurementId = '';

/**
 * Loads the analytics tag, only when a measurement id is configured (spec §1): analytics
 * storage granted, ad storage denied, and no automatic page view (routes report their own).
 */
export function initAnalytics(id: string | null | undefined): void {
  if (!id || enabled || typeof window === 'undefined') return;
  enabled = true;
  measurementId = id;
  window.dataLayer = window.dataLayer ?? [];
  window.gtag = function gtag() {
    // gtag.js reads the `arguments` object itself, not an array.
    window.dataLayer!.push(arguments);
  };
  window.gtag('consent', 'default', { analytics_storage: 'granted', ad_storage: 'denied' });
  window.gtag('js', new Date());
  window.gtag('config', id, { send_page_view: false });
  const script = document.createElement('script');
  script.async = true;
  script.src = `https://www.googletagmanager.com/gtag/js?id=${encodeURIComponent(id)}`;
  document.head.appendChild(script);
}

function send(...args: unknown[]): void {
  if (enabled) window.gtag?.(...args);
}

export function trackPageView(path: string): void {
  send('event', 'page_view', { page_path: path, page_location: window.location.href, send_to: measurementId });
}

export function setAccountState(profile: { subscriptionStatus?: string } | null): void {
  send('set', 'user_properties', accountProperties(profile));
}

export const trackUpload = (files: readonly File[], method: UploadMethod) => send('event', 'upload_receipts', uploadPayload(files, method));
export const trackOcrResult = (receipt: ReceiptView) => send('event', 'ocr_result', ocrResultPayload(receipt));
export const trackExport = (input: Parameters<typeof exportPayload>[0]) => send('event', 'export_receipts', exportPayload(input));
export const trackPlanView = (plan: string) => send('event', 'view_plan', pricingPayload(plan));
export const trackSubscription = (input: Parameters<typeof subscriptionPayload>[0]) => send('event', 'begin_subscription', subscriptionPayload(input));
