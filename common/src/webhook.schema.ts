import { z } from 'zod';
import { receiptViewSchema } from './receipt.schema.js';
import { webhookTarget } from './webhook-address.rule.js';

/**
 * Webhooks: the events an account's endpoints can subscribe to, what each delivery's body
 * carries, the account page's requests and views, and the words they use. Declared once here
 * for the api (routes, emission), the worker (delivery) and the web (the account page).
 */
export const WEBHOOK_EVENTS = ['receipt.completed', 'receipt.failed', 'upload.cancelled', 'receipt.corrected'] as const;
export const webhookEventSchema = z.enum(WEBHOOK_EVENTS);
export type WebhookEvent = z.infer<typeof webhookEventSchema>;

/** The test delivery the account page sends on demand; no endpoint subscribes to it. */
export const WEBHOOK_PING = 'webhook.ping';
export const WEBHOOK_DELIVERY_TYPES = [...WEBHOOK_EVENTS, WEBHOOK_PING] as const;
export type WebhookDeliveryType = (typeof WEBHOOK_DELIVERY_TYPES)[number];

/** What each event is, for the account page's checkboxes. */
export const WEBHOOK_EVENT_LABELS: Record<WebhookEvent, string> = {
  'receipt.completed': 'A receipt was read',
  'receipt.failed': 'A receipt could not be read',
  'upload.cancelled': 'An upload was cancelled',
  'receipt.corrected': 'A receipt was corrected',
};

const changesSchema = z.partialRecord(z.string(), z.object({ from: z.unknown(), to: z.unknown() }));

/** Each delivery type's `data`: the upload's and receipt's ids, and the receipt as the api's views give it. */
export const webhookDataSchemas = {
  'receipt.completed': z.object({ uploadId: z.uuid(), receiptId: z.uuid(), filename: z.string(), receipt: receiptViewSchema }),
  'receipt.failed': z.object({ uploadId: z.uuid(), filename: z.string(), error: z.string() }),
  /** `completed`: a re-extraction was cancelled, and the upload keeps the receipt it had. */
  'upload.cancelled': z.object({ uploadId: z.uuid(), filename: z.string(), status: z.enum(['cancelled', 'completed']) }),
  /** `changes`: field → { from, to }, as the receipt's history records them. */
  'receipt.corrected': z.object({ uploadId: z.uuid(), receiptId: z.uuid(), filename: z.string(), receipt: receiptViewSchema, changes: changesSchema }),
  [WEBHOOK_PING]: z.object({ endpointId: z.uuid(), message: z.string() }),
} satisfies Record<WebhookDeliveryType, z.ZodType>;
export type WebhookData = { [T in WebhookDeliveryType]: z.infer<(typeof webhookDataSchemas)[T]> };

const envelope = <T extends WebhookDeliveryType>(type: T) =>
  z.object({ id: z.uuid(), type: z.literal(type), createdAt: z.iso.datetime(), data: webhookDataSchemas[type] });

/**
 * A delivery's JSON body: `id` is the event's (a redelivery sends the same id, so a receiver can
 * drop what it has seen), `createdAt` when it happened.
 */
export const webhookPayloadSchema = z.discriminatedUnion('type', [
  envelope('receipt.completed'),
  envelope('receipt.failed'),
  envelope('upload.cancelled'),
  envelope('receipt.corrected'),
  envelope(WEBHOOK_PING),
]);
export type WebhookPayload = z.infer<typeof webhookPayloadSchema>;

/** The header carrying `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">` (verifyWebhookSignature in @receipts/common/webhook-signature). */
export const WEBHOOK_SIGNATURE_HEADER = 'Receipts-Signature';
/** A signature older (or newer) than this is refused: a captured delivery cannot be replayed later. */
export const WEBHOOK_SIGNATURE_TOLERANCE_SECONDS = 300;
/** Every signing secret starts so, like Stripe's: recognisable in a config file or a leak scan. */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';
/** Endpoints an account may register. */
export const WEBHOOK_ENDPOINTS_MAX = 10;
/** The delivery log shows this many, newest first. */
export const WEBHOOK_DELIVERY_LOG_SIZE = 50;

export const WEBHOOK_MESSAGES = {
  urlRequired: 'Enter the address to send events to.',
  urlTooLong: 'The address is too long.',
  eventsRequired: 'Choose at least one event.',
  nothingToChange: 'Say what to change: events or enabled.',
  tooMany: `An account can have at most ${WEBHOOK_ENDPOINTS_MAX} webhook endpoints.`,
  confirmBeforeRegistering: 'Confirm your e-mail address before adding webhook endpoints: follow the link we e-mailed you, or send a new one from your dashboard.',
  endpointNotFound: 'Webhook endpoint not found',
  deliveryNotFound: 'Delivery not found',
  /** The test delivery's `data.message`. */
  ping: 'A test delivery from your Receipts account.',
  /** Why an endpoint stopped receiving events, when the user turned it off. */
  disabledByUser: 'Turned off by you.',
  /** … when a delivery failed through every retry (about a day) and nothing reached the endpoint meanwhile. */
  disabledByFailures: (event: string, error: string) => `Turned off after a ${event} delivery failed for a day (last error: ${error}). Turn it on again once it answers.`,
  disabledMailSubject: 'A webhook endpoint was turned off',
} as const;

/** A webhook URL: http or https, no credentials in it (the address it reaches is checked when it is registered and before each delivery). */
export const webhookUrlSchema = z
  .string({ message: WEBHOOK_MESSAGES.urlRequired })
  .trim()
  .min(1, WEBHOOK_MESSAGES.urlRequired)
  .max(2000, WEBHOOK_MESSAGES.urlTooLong)
  .superRefine((url, ctx) => {
    const target = webhookTarget(url);
    if ('message' in target) ctx.addIssue({ code: 'custom', message: target.message });
  });

/** The events chosen, each once, in the list's order. */
const eventsSchema = z
  .array(webhookEventSchema, { message: WEBHOOK_MESSAGES.eventsRequired })
  .min(1, WEBHOOK_MESSAGES.eventsRequired)
  .transform((events) => WEBHOOK_EVENTS.filter((e) => events.includes(e)));

/** POST /api/user/webhooks. */
export const webhookCreateSchema = z.object({ url: webhookUrlSchema, events: eventsSchema });
export type WebhookCreateInput = z.input<typeof webhookCreateSchema>;

/** PATCH /api/user/webhooks/:id: the events, or turned on or off (on again clears why it was off). */
export const webhookUpdateSchema = z
  .object({ events: eventsSchema.optional(), enabled: z.boolean({ message: 'enabled is true or false' }).optional() })
  .refine((v) => v.events !== undefined || v.enabled !== undefined, WEBHOOK_MESSAGES.nothingToChange);
export type WebhookUpdateInput = z.input<typeof webhookUpdateSchema>;

export const webhookEndpointViewSchema = z.object({
  id: z.uuid(),
  url: z.string(),
  events: z.array(webhookEventSchema),
  enabled: z.boolean(),
  /** Why it is off (one of WEBHOOK_MESSAGES' reasons); null while on. */
  disabledReason: z.string().nullable(),
  disabledAt: z.string().nullable(),
  createdAt: z.string(),
});
export type WebhookEndpointView = z.infer<typeof webhookEndpointViewSchema>;

/** The answer to a registration: the only time the signing secret is shown. */
export const webhookEndpointCreatedSchema = webhookEndpointViewSchema.extend({ secret: z.string().startsWith(WEBHOOK_SECRET_PREFIX) });
export type WebhookEndpointCreated = z.infer<typeof webhookEndpointCreatedSchema>;

/**
 * pending: not tried yet; retrying: failed, tried again at `nextAttemptAt`; delivered: answered
 * 2xx; failed: given up (every attempt failed, or the endpoint was turned off meanwhile).
 */
export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'retrying', 'delivered', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

/** What sent a delivery: an event (retried for a day), or the user from the account page (one attempt). */
export const WEBHOOK_TRIGGERS = ['event', 'redelivery', 'test'] as const;
export type WebhookTrigger = (typeof WEBHOOK_TRIGGERS)[number];

export const webhookDeliveryViewSchema = z.object({
  id: z.uuid(),
  eventId: z.uuid(),
  event: z.enum(WEBHOOK_DELIVERY_TYPES),
  trigger: z.enum(WEBHOOK_TRIGGERS),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  attempts: z.number().int(),
  maxAttempts: z.number().int(),
  /** The last attempt's HTTP status; null when it got no answer (refused address, timeout, connection error). */
  lastHttpStatus: z.number().int().nullable(),
  responseTimeMs: z.number().int().nullable(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  lastAttemptAt: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
  deliveredAt: z.string().nullable(),
});
export type WebhookDeliveryView = z.infer<typeof webhookDeliveryViewSchema>;

/** GET /api/user/webhooks. */
export const webhookEndpointListSchema = z.object({ endpoints: z.array(webhookEndpointViewSchema) });
/** GET /api/user/webhooks/:id/deliveries: the latest, newest first. */
export const webhookDeliveryListSchema = z.object({ deliveries: z.array(webhookDeliveryViewSchema) });
