import type { IntakeAddressView } from '@receipts/common';
import { apiJson, apiPost } from './api.js';

/** The account's private intake address; the key is the url the shared query function reads. */
export const intakeKeys = {
  address: ['/api/intake'] as const,
};

/** A new intake address; the one before stops working at once. */
export const renewIntakeAddress = () => apiPost<IntakeAddressView>('/api/intake');

/** Turns the intake address off: mail to it is refused. */
export const turnOffIntakeAddress = () => apiJson<IntakeAddressView>('/api/intake', { method: 'DELETE' });
