import { WEBHOOK_MESSAGES, webhookRetryDelayMs, type WebhookJob } from '@receipts/common';
import {
  metrics,
  WebhookRetry,
  type HostResolver,
  type JobOutcome,
  type JobRun,
  type Logger,
  type Mailer,
  type WebhookAttempt,
  type WebhookJobs,
  type WebhookPolicy,
  type WebhookRepository,
} from '@receipts/infra';
import { outcomeOfError } from '../job/failure-outcome.rule.js';
import { sendWebhook } from './webhook.sender.js';

export interface WebhookDeliveryDeps {
  webhooks: Pick<WebhookRepository, 'forSending' | 'delivered' | 'retrying' | 'gaveUp' | 'dropped'>;
  mailer: Mailer;
  policy: WebhookPolicy;
  /** The waits between an event's attempts (WEBHOOK_RETRY_SCHEDULE_MS unless configured). */
  schedule: readonly number[];
  timeoutMs: number;
  /** Where the mail about a turned-off endpoint links to. */
  publicUrl: string;
  log: Logger;
  /** The host names' resolver (the system's unless a test gives one). */
  resolve?: HostResolver;
}

const DONE: JobOutcome = { kind: 'done' };

/** What a delivery's job does: one attempt, recorded on the delivery's row, which alone decides what comes next. */
export function createWebhookDeliveryProcessor(deps: WebhookDeliveryDeps) {
  return async function deliverWebhook(run: JobRun<WebhookJob>): Promise<JobOutcome> {
    const log = deps.log.child({ deliveryId: run.data.deliveryId, jobAttempt: run.attempt });
    // The database or Redis away: the job waits it out; anything else is tried again on the schedule.
    return attempt(deps, run.data.deliveryId, log).catch(outcomeOfError);
  };
}

async function attempt(deps: WebhookDeliveryDeps, deliveryId: string, log: Logger): Promise<JobOutcome> {
  const { webhooks, schedule } = deps;
  const found = await webhooks.forSending(deliveryId);
  // Gone with its endpoint, or finished by an earlier run of the same job.
  if (!found || found.delivery.status === 'delivered' || found.delivery.status === 'failed') return DONE;
  const { delivery, endpoint } = found;
  // An event's delivery stops with its endpoint; one the user asked for goes anyway (a test before turning it on again).
  if (delivery.trigger === 'event' && !endpoint.enabled) {
    await webhooks.dropped(deliveryId, 'Not sent: the endpoint was turned off.');
    metrics.webhookAttempts.inc({ outcome: 'dropped' });
    return DONE;
  }
  const result = await sendWebhook(
    { url: endpoint.url, secret: endpoint.secret, payload: delivery.payload, event: delivery.event, deliveryId },
    { policy: deps.policy, timeoutMs: deps.timeoutMs, resolve: deps.resolve },
  );
  const at = new Date();
  const attempted: WebhookAttempt = { at, httpStatus: result.httpStatus, responseTimeMs: result.responseTimeMs, error: result.error };
  if (result.ok) {
    await webhooks.delivered(deliveryId, attempted);
    metrics.webhookAttempts.inc({ outcome: 'delivered' });
    return DONE;
  }
  const error = result.error ?? 'Failed.';
  const failed = delivery.attempts + 1;
  const wait = failed < delivery.maxAttempts ? webhookRetryDelayMs(schedule, failed) : null;
  if (wait !== null) {
    await webhooks.retrying(deliveryId, attempted, new Date(at.getTime() + wait));
    metrics.webhookAttempts.inc({ outcome: 'retry' });
    log.info({ err: error, attempt: failed, waitMs: wait }, 'webhook attempt failed; tried again later');
    return { kind: 'retry', error: new WebhookRetry(error, wait) };
  }
  const disabled = await webhooks.gaveUp(deliveryId, attempted, WEBHOOK_MESSAGES.disabledByFailures(delivery.event, error));
  metrics.webhookAttempts.inc({ outcome: 'failed' });
  log.warn({ err: error, attempts: failed, endpointId: endpoint.id, disabled: disabled !== null }, 'webhook delivery failed for good');
  if (disabled) {
    // The endpoint is off either way; a mail that cannot be sent is the log's to tell.
    await deps.mailer
      .send({
        to: disabled.email,
        subject: WEBHOOK_MESSAGES.disabledMailSubject,
        text:
          `Your webhook endpoint ${disabled.endpoint.url} no longer receives events.\n\n${disabled.endpoint.disabledReason}\n\n` +
          `See its deliveries, send them again and turn it back on on your account page: ${deps.publicUrl}/account\n`,
      })
      .catch((err: unknown) => log.error({ err, endpointId: endpoint.id }, 'mail about a turned-off webhook endpoint not sent'));
  }
  return { kind: 'failed', message: error };
}

const SWEEP_BATCH = 200;

/**
 * Deliveries whose job Redis lost (a restart without persistence, an enqueue that failed while
 * the event was written): each one overdue by `graceMs` is queued again with the attempts its
 * row has left. Safe to run from every worker at once (a delivery's job id is its own). How many
 * were queued.
 */
export async function requeueOverdueDeliveries(
  deps: { webhooks: Pick<WebhookRepository, 'overdue'>; jobs: Pick<WebhookJobs, 'requeue'> },
  graceMs: number,
  now = Date.now(),
): Promise<number> {
  let queued = 0;
  for (const d of await deps.webhooks.overdue(new Date(now - graceMs), SWEEP_BATCH)) {
    if (await deps.jobs.requeue(d.id, d.maxAttempts - d.attempts)) queued += 1;
  }
  return queued;
}
