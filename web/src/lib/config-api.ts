import type { DetectedCurrency } from '@receipts/common';
import { apiJson } from './api.js';

/** The server's settings for the web app, read by the shared query function (spec §7). */
export const configKey = ['/api/config'] as const;

/** The currency the server guesses for this visitor (spec §7 GET /api/detect-currency). */
export const detectCurrency = () => apiJson<DetectedCurrency>('/api/detect-currency');
