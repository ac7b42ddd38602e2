import type { WebhookCreateInput, WebhookDeliveryView, WebhookEndpointCreated, WebhookEndpointView, WebhookUpdateInput } from '@receipts/common';
import { apiJson, apiPost } from './api.js';

/** Reads of the account's webhooks; each key is the url the shared query function reads. */
export const webhookKeys = {
  /** `{ endpoints: WebhookEndpointView[] }`. */
  endpoints: ['/api/user/webhooks'] as const,
  /** `{ deliveries: WebhookDeliveryView[] }`: an endpoint's latest, newest first. */
  deliveries: (id: string) => ['/api/user/webhooks', id, 'deliveries'] as const,
};

export type EndpointList = { endpoints: WebhookEndpointView[] };
export type DeliveryList = { deliveries: WebhookDeliveryView[] };

const endpointUrl = (id: string) => `/api/user/webhooks/${id}`;
/** The answer carries the signing secret, this once. */
export const createWebhook = (input: WebhookCreateInput) => apiJson<WebhookEndpointCreated>('/api/user/webhooks', { method: 'POST', json: input });
export const updateWebhook = (id: string, change: WebhookUpdateInput) => apiJson<WebhookEndpointView>(endpointUrl(id), { method: 'PATCH', json: change });
export const deleteWebhook = (id: string) => apiJson<null>(endpointUrl(id), { method: 'DELETE' });
export const testWebhook = (id: string) => apiPost<WebhookDeliveryView>(`${endpointUrl(id)}/test`);
export const redeliverWebhook = (id: string, deliveryId: string) => apiPost<WebhookDeliveryView>(`${endpointUrl(id)}/deliveries/${deliveryId}/redeliver`);
