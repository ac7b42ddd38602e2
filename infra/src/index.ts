export * from './config.js';
export * from './db/database.js';
export * as schema from './db/schema.js';
export type {
  ExpenseReportRow,
  IdempotencyKeyRow,
  NotificationRow,
  IdempotentAnswer,
  KeptExport,
  MerchantRuleRow,
  QuotaCharge,
  ReceiptEditRow,
  ReceiptRow,
  SubscriptionRow,
  UploadRow,
  UserCategoryRow,
  UserRow,
  WebhookDeliveryRow,
  WebhookEndpointRow,
  WorkspaceInvitationRow,
} from './db/schema.js';
export * from './file-store.js';
export * from './logger.js';
export * from './job-queue.js';
export * from './webhook-queue.js';
export * from './redis.js';
export * from './upload-event-bus.js';
export { ownerKey } from './upload-scope.js';
export * from './upload-view.js';
export * from './runtime.js';
export * from './health-server.js';
export * from './quota.service.js';
export * from './mailer.js';
export * from './upload.repository.js';
export * from './upload-read.repository.js';
export * from './upload-duplicate.repository.js';
export * from './upload-failure.service.js';
export * from './receipt.repository.js';
export * from './merchant-rule.repository.js';
export * from './category.repository.js';
export * from './user.repository.js';
export * from './session.repository.js';
export * from './api-token.repository.js';
export * from './billing.repository.js';
export * from './intake.repository.js';
export * from './workspace.repository.js';
export * from './member.repository.js';
export * from './invitation.repository.js';
export * from './audit.repository.js';
export * from './approval.repository.js';
export * from './notification.repository.js';
export * from './retention.js';
export * from './idempotency-key.repository.js';
export * from './metrics.js';
export * from './unavailable.js';
export * from './worker-thread.js';
export * from './webhook.repository.js';
export * from './webhook-events.js';
export * from './webhook-destination.js';
