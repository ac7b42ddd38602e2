import { useEffect, useState } from 'react';
import { defaultCurrency } from '../lib/browser-storage.js';
import { detectCurrency } from '../lib/config-api.js';
import { DEFAULT_CURRENCY, isOfferedCurrency } from '@receipts/common';

let detected: Promise<string> | null = null;

/** The detected currency, asked once per page load; any failure falls back silently to USD (spec §8). */
function detect(): Promise<string> {
  detected ??= detectCurrency()
    .then((r) => (isOfferedCurrency(r?.currency) ? r.currency : DEFAULT_CURRENCY))
    .catch(() => DEFAULT_CURRENCY);
  return detected;
}

/** The visitor's currency: the stored defaultCurrency, else detected (spec §9). A choice is stored. */
export function useCurrency(): [string, (code: string) => void] {
  const stored = defaultCurrency.get();
  const [currency, setCurrency] = useState(isOfferedCurrency(stored) ? stored : DEFAULT_CURRENCY);
  useEffect(() => {
    if (isOfferedCurrency(stored)) return;
    let live = true;
    void detect().then((code) => live && setCurrency(code));
    return () => {
      live = false;
    };
  }, [stored]);
  return [
    currency,
    (code) => {
      defaultCurrency.set(code);
      setCurrency(code);
    },
  ];
}
