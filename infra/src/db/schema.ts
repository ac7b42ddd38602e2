import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import type {
  DatevSettings,
  DuplicateReason,
  EngineName,
  IntakeRefusal,
  IssueAcceptance,
  IssueFlag,
  Lane,
  LineItem,
  MerchantRuleKind,
  PipelineStep,
  PlanId,
  ReceiptEditKind,
  ReceiptSources,
  RecognizedLine,
  TaxRate,
  TokenScope,
  UploadAccepted,
  UploadStatus,
  WebhookDeliveryStatus,
  WebhookDeliveryType,
  WebhookEvent,
  WebhookTrigger,
  WorkspaceRole,
  AuditAction,
  AssignableRole,
  ApprovalStatus,
  NotificationDetail,
  NotificationKind,
  ReportStatus,
} from '@receipts/common';

const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

/** express-session's store. */
export const sessions = pgTable(
  'sessions',
  {
    sid: text('sid').primaryKey(),
    sess: jsonb('sess').$type<Record<string, unknown>>().notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('sessions_expires_at_idx').on(t.expiresAt)],
);

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    /** Stored lower-cased: one account per address whatever its spelling. */
    email: text('email').notNull(),
    username: text('username').notNull(),
    passwordHash: text('password_hash').notNull(),
    userType: text('user_type').$type<'user' | 'admin'>().notNull().default('user'),
    stripeCustomerId: text('stripe_customer_id'),
    /** When a mailed link (confirmation or password reset) proved the address; null: not yet. */
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    /** Accounts from before addresses were confirmed (set by the migration); see isEmailVerified in common. */
    createdBeforeVerification: boolean('created_before_verification').notNull().default(false),
    /** The latest sign-in; null: never signed in, so the first sign-in is welcomed, not welcomed back. */
    lastSignedInAt: timestamp('last_signed_in_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [uniqueIndex('users_email_idx').on(t.email), uniqueIndex('users_stripe_customer_idx').on(t.stripeCustomerId)],
);

/**
 * Where receipts, rules, categories, intake addresses, DATEV settings and exports live. Every
 * account has its personal workspace (`personalOf`, whose id is the account's id: the data of
 * before workspaces stayed where it was) and may create or join more.
 */
export const workspaces = pgTable('workspaces', {
  id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
  name: text('name').notNull(),
  /** The account whose own workspace this is (deleted with it); null: a team workspace. */
  personalOf: uuid('personal_of')
    .unique()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** The DATEV export's accounts and numbers (settings page); null: the SKR03 defaults. */
  datevSettings: jsonb('datev_settings').$type<DatevSettings>(),
  ...timestamps,
});

/** Who belongs to a workspace, in which role; exactly one owner each. */
export const workspaceMembers = pgTable(
  'workspace_members',
  {
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role').$type<WorkspaceRole>().notNull(),
    ...timestamps,
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.userId] }),
    index('workspace_members_user_idx').on(t.userId),
    uniqueIndex('workspace_members_one_owner_idx').on(t.workspaceId).where(sql`${t.role} = 'owner'`),
  ],
);

/**
 * The workspace's audit trail: who did what, when. Kept with the workspace (deleted with it);
 * the actor's address is copied, so the trail still names who acted after their account is gone.
 */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    actorEmail: text('actor_email'),
    action: text('action').$type<AuditAction>().notNull(),
    /** What it was done to: a receipt's or upload's id, a member's address, a report's id. */
    subject: text('subject'),
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('audit_events_workspace_idx').on(t.workspaceId, t.createdAt), index('audit_events_actor_idx').on(t.actorId, t.createdAt)],
);

/**
 * An invitation into a workspace, mailed as a single-use link: only the SHA-256 of its token is
 * stored. Open while neither accepted nor revoked (and usable until `expiresAt`); at most one
 * open invitation per address and workspace. A resend gives it a new token and expiry.
 */
export const workspaceInvitations = pgTable(
  'workspace_invitations',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    /** Lower-cased: only an account with this address, confirmed, may accept. */
    email: text('email').notNull(),
    role: text('role').$type<AssignableRole>().notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    invitedBy: uuid('invited_by').references(() => users.id, { onDelete: 'set null' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('workspace_invitations_open_idx').on(t.workspaceId, t.email).where(sql`${t.acceptedAt} IS NULL AND ${t.revokedAt} IS NULL`)],
);

/**
 * A workspace's paid plan, shared by its members; Stripe's webhooks keep it current. One per
 * workspace. The Stripe customer is the account that pays (users.stripeCustomerId); the Stripe
 * subscription names the workspace in its metadata.
 */
export const subscriptions = pgTable('subscriptions', {
  workspaceId: uuid('workspace_id')
    .primaryKey()
    .references(() => workspaces.id, { onDelete: 'cascade' }),
  planId: text('plan_id').$type<PlanId>().notNull(),
  /** Stripe's subscription status: incomplete, trialing, active, past_due, canceled, unpaid, … */
  status: text('status').notNull(),
  stripeSubscriptionId: text('stripe_subscription_id').unique(),
  currentPeriodStart: timestamp('current_period_start', { withTimezone: true }).notNull(),
  currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }).notNull(),
  cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
  receiptLimit: integer('receipt_limit').notNull(),
  ...timestamps,
});

/** Units used per quota subject (a subscribed workspace, an account, an anonymous session, a client address) and period. */
export const quotaUsage = pgTable(
  'quota_usage',
  {
    subject: text('subject').notNull(),
    period: text('period').notNull(),
    used: integer('used').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.subject, t.period] })],
);

/** What a mailed single-use link does when followed. */
export type MailTokenPurpose = 'password-reset' | 'email-verification';

/** Every single-use link mailed to an account (see mail-token.repository.ts): expiring, used once, stored hashed. */
export const mailTokens = pgTable(
  'mail_tokens',
  {
    /** SHA-256 of the token: the token itself exists only in the e-mail. */
    tokenHash: text('token_hash').primaryKey(),
    purpose: text('purpose').$type<MailTokenPurpose>().notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The address the link was mailed to: a confirmation link confirms that address only (null: a link from before this was kept, which confirms nothing). */
    email: text('email'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('mail_tokens_user_purpose_idx').on(t.userId, t.purpose)],
);

/** Stripe events already applied: each is applied once. */
export const stripeEvents = pgTable('stripe_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The invoices of a workspace's subscription, for its billing page. */
export const invoices = pgTable(
  'invoices',
  {
    id: text('id').primaryKey(),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    amountPaid: integer('amount_paid').notNull(),
    currency: text('currency').notNull(),
    status: text('status').notNull(),
    hostedInvoiceUrl: text('hosted_invoice_url'),
    periodEnd: timestamp('period_end', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('invoices_workspace_idx').on(t.workspaceId, t.createdAt)],
);

/** A quota unit an upload took, so a cancel or failure returns exactly that unit. */
export interface QuotaCharge {
  subject: string;
  period: string;
}

/**
 * One uploaded file and its way through the queue. An account's upload belongs to a workspace
 * (`workspaceId`) and was made by a member (`userId`, null once that account is gone); an
 * anonymous visitor's is theirs by the random id kept in their session (`anonId`).
 */
export const uploads = pgTable(
  'uploads',
  {
    id: uuid('id').primaryKey(),
    workspaceId: uuid('workspace_id').references(() => workspaces.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    anonId: uuid('anon_id'),
    filename: text('filename').notNull(),
    mimeType: text('mime_type').notNull(),
    size: integer('size').notNull(),
    sha256: text('sha256').notNull(),
    currencyCode: text('currency_code'),
    lane: text('lane').$type<Lane>().notNull(),
    status: text('status').$type<UploadStatus>().notNull().default('queued'),
    progress: integer('progress').notNull().default(0),
    step: text('step').$type<PipelineStep>(),
    error: text('error'),
    attempts: integer('attempts').notNull().default(0),
    quotaCharges: jsonb('quota_charges').$type<QuotaCharge[]>().notNull().default([]),
    quotaRefunded: boolean('quota_refunded').notNull().default(false),
    /** The engine asked for by a re-extraction; null means the server's default. */
    engine: text('engine').$type<EngineName>(),
    /** An earlier upload of the same owner this one probably repeats (same file, or same merchant, date and total). */
    duplicateOf: uuid('duplicate_of').references((): AnyPgColumn => uploads.id, { onDelete: 'set null' }),
    duplicateReason: text('duplicate_reason').$type<DuplicateReason>(),
    /** The owner chose to keep it: it is not flagged again. */
    duplicateKept: boolean('duplicate_kept').notNull().default(false),
    /**
     * Where its receipt stands in the submit → approve step (approval.repository.ts moves it):
     * set from the uploader's role when it is made. The columns after it are the latest
     * submission's and decision's.
     */
    approvalStatus: text('approval_status').$type<ApprovalStatus>().notNull().default('not-required'),
    approvalComment: text('approval_comment'),
    approvalDecidedBy: uuid('approval_decided_by').references((): AnyPgColumn => users.id, { onDelete: 'set null' }),
    approvalDecidedAt: timestamp('approval_decided_at', { withTimezone: true }),
    approvalSubmittedAt: timestamp('approval_submitted_at', { withTimezone: true }),
    /** The report it was last submitted in; null: alone, or never submitted. */
    reportId: uuid('report_id').references((): AnyPgColumn => expenseReports.id, { onDelete: 'set null' }),
    /** When the retention job deleted the original file (the extracted data stays). */
    originalDeletedAt: timestamp('original_deleted_at', { withTimezone: true }),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    index('uploads_user_created_idx').on(t.userId, t.createdAt),
    index('uploads_workspace_created_idx').on(t.workspaceId, t.createdAt),
    index('uploads_anon_created_idx').on(t.anonId, t.createdAt),
    index('uploads_status_idx').on(t.status),
    /** The finishing rate a waiting upload's estimate is made from (queuePlaces). */
    index('uploads_finished_at_idx').on(t.finishedAt),
    index('uploads_workspace_sha256_idx').on(t.workspaceId, t.sha256),
    index('uploads_anon_sha256_idx').on(t.anonId, t.sha256),
    index('uploads_duplicate_of_idx').on(t.duplicateOf),
    index('uploads_originals_due_idx').on(t.createdAt).where(sql`${t.originalDeletedAt} IS NULL`),
    index('uploads_report_idx').on(t.reportId),
    // The approval queue: what waits for a decision in a workspace.
    index('uploads_workspace_submitted_idx').on(t.workspaceId, t.approvalSubmittedAt).where(sql`${t.approvalStatus} = 'submitted'`),
  ],
);

/**
 * A member's expense report: a named batch of their receipts for a period, submitted at once
 * (the receipts point at it, `uploads.report_id`). Its status follows its receipts' (see
 * REPORT_STATUSES); the comment and decider are those of a decision on the whole report.
 */
export const expenseReports = pgTable(
  'expense_reports',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    submitterId: uuid('submitter_id').references(() => users.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    periodStart: text('period_start').notNull(),
    periodEnd: text('period_end').notNull(),
    status: text('status').$type<ReportStatus>().notNull().default('submitted'),
    comment: text('comment'),
    decidedBy: uuid('decided_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    submittedAt: timestamp('submitted_at', { withTimezone: true }).notNull().defaultNow(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
  },
  (t) => [index('expense_reports_workspace_idx').on(t.workspaceId, t.status, t.submittedAt), index('expense_reports_submitter_idx').on(t.submitterId, t.createdAt)],
);

/** What a person is told in the app (the nav's list), one row per event; e-mailed beside. */
export const notifications = pgTable(
  'notifications',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<NotificationKind>().notNull(),
    /** The receipt's or report's id. */
    subject: text('subject'),
    detail: jsonb('detail').$type<NotificationDetail>().notNull(),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('notifications_user_idx').on(t.userId, t.createdAt), index('notifications_unread_idx').on(t.userId).where(sql`${t.readAt} IS NULL`)],
);

const money = (name: string) => numeric(name, { precision: 14, scale: 2, mode: 'number' });

/** The extracted spec §3 receipt record of one upload (exactly one per upload). */
export const receipts = pgTable(
  'receipts',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    uploadId: uuid('upload_id')
      .notNull()
      .unique()
      .references(() => uploads.id, { onDelete: 'cascade' }),
    merchantName: text('merchant_name'),
    /**
     * `merchantKey(merchantName)` (common), written with the name: what duplicates and the spending
     * by merchant compare, so they agree with the learned rules on what one merchant is.
     */
    merchantKey: text('merchant_key'),
    /** The merchant as the extraction read it, before the owner's rules renamed it: what a correction teaches a rule about. */
    merchantRead: text('merchant_read'),
    date: text('date'),
    time: text('time'),
    currency: text('currency').notNull().default('USD'),
    subtotal: money('subtotal'),
    tax: money('tax'),
    tip: money('tip'),
    discount: money('discount'),
    total: money('total'),
    paymentMethod: text('payment_method'),
    /** One of the spec's categories, or one of the owner's own (`userCategories`), as it is spelled there. */
    category: text('category').notNull(),
    /** The owner's tags, each once whatever its case. */
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    receiptNumber: text('receipt_number'),
    tin: text('tin'),
    quality: real('quality').notNull(),
    items: jsonb('items').$type<LineItem[]>().notNull(),
    /** The tax per rate as printed (rate table rows), adding up to `tax`; empty where none is printed. */
    taxRates: jsonb('tax_rates').$type<TaxRate[]>().notNull().default([]),
    rawText: text('raw_text').notNull(),
    /** Every recognised line with its place on the original, for the review screen. */
    lines: jsonb('lines').$type<RecognizedLine[]>().notNull().default([]),
    /** Which of `lines` each field came from. */
    fieldLines: jsonb('field_lines').$type<ReceiptSources>().notNull().default({}),
    /** The reader that produced the text (`tesseract:eng`, `paddle`, `pdf-text`, `documentai`). */
    readBy: text('read_by'),
    /** Per page, the quarter turn (clockwise, degrees) that shows its picture the way it was read upright. */
    pageTurns: jsonb('page_turns').$type<number[]>().notNull().default([]),
    /** The receipt's issues as codes with values; their messages are rendered where they are shown. */
    issues: jsonb('issues').$type<IssueFlag[]>().notNull(),
    /** Flags (issues, low quality) a person accepted after looking, with who and when; `valid` counts them. */
    acceptedIssues: jsonb('accepted_issues').$type<IssueAcceptance[]>().notNull().default([]),
    valid: boolean('valid').notNull(),
    ...timestamps,
  },
  (t) => [index('receipts_merchant_idx').on(t.merchantName), index('receipts_date_total_idx').on(t.date, t.total)],
);

/** What changed in a receipt and how: a correction by its owner, or a re-extraction. */
export const receiptEdits = pgTable(
  'receipt_edits',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    receiptId: uuid('receipt_id')
      .notNull()
      .references(() => receipts.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<ReceiptEditKind>().notNull(),
    /** Field → { from, to }; items as whole lists. */
    changes: jsonb('changes').$type<Record<string, { from: unknown; to: unknown }>>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('receipt_edits_receipt_idx').on(t.receiptId, t.createdAt)],
);

/**
 * What a user's corrections taught: a merchant as read → its name (`merchant`), or a merchant →
 * its category (`category`). Applied to the user's next receipts by the worker; one per key.
 */
export const merchantRules = pgTable(
  'merchant_rules',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<MerchantRuleKind>().notNull(),
    /** The merchant text the rule matches, as the user saw it. */
    match: text('match').notNull(),
    /** Its normalized form (`merchantKey`), the one compared. */
    matchKey: text('match_key').notNull(),
    /** The merchant's name, or the category. */
    value: text('value').notNull(),
    ...timestamps,
  },
  (t) => [uniqueIndex('merchant_rules_workspace_kind_key_idx').on(t.workspaceId, t.kind, t.matchKey)],
);

/** A user's own categories beside the spec's six, one per name whatever its case, each with its DATEV expense account (null: `other`'s). */
export const userCategories = pgTable(
  'user_categories',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    datevAccount: text('datev_account'),
    ...timestamps,
  },
  (t) => [uniqueIndex('user_categories_workspace_name_idx').on(t.workspaceId, sql`lower(${t.name})`)],
);

export type UploadRow = typeof uploads.$inferSelect;
export type UserCategoryRow = typeof userCategories.$inferSelect;
export type MerchantRuleRow = typeof merchantRules.$inferSelect;
export type UserRow = typeof users.$inferSelect;
export type WorkspaceRow = typeof workspaces.$inferSelect;
export type WorkspaceMemberRow = typeof workspaceMembers.$inferSelect;
export type AuditEventRow = typeof auditEvents.$inferSelect;
export type WorkspaceInvitationRow = typeof workspaceInvitations.$inferSelect;
export type ExpenseReportRow = typeof expenseReports.$inferSelect;
export type NotificationRow = typeof notifications.$inferSelect;
export type SubscriptionRow = typeof subscriptions.$inferSelect;
export type ReceiptRow = typeof receipts.$inferSelect;
export type ReceiptEditRow = typeof receiptEdits.$inferSelect;

/**
 * A member's private intake address into one workspace: the random token in its local part. No
 * row: none (never made, turned off, or no longer a member).
 */
export const intakeAddresses = pgTable(
  'intake_addresses',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    token: text('token').notNull().unique(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.workspaceId] })],
);

/**
 * Mail received for an account, one row per message (its Message-ID, hashed), so a message
 * delivered twice is processed once. Written before the message's uploads and removed again
 * if they cannot all be written.
 */
export const intakeMessages = pgTable(
  'intake_messages',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    messageKey: text('message_key').notNull(),
    /** Uploads the message became. */
    uploads: integer('uploads').notNull().default(0),
    /** What could not be taken, and why (the reply names them). */
    refusals: jsonb('refusals').$type<Array<{ part: string; refusal: IntakeRefusal }>>().notNull().default([]),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.messageKey] })],
);

/**
 * Personal access tokens (`Authorization: Bearer`, see api/src/tokens/): found by their visible
 * prefix, proven by the SHA-256 of the whole token (32 random bytes: no slow hash needed). A
 * revoked token keeps its row, so the list of what was used when stays.
 */
export const apiTokens = pgTable(
  'api_tokens',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** The token's visible part (`rct_` and 8 random characters), shown in the list. */
    prefix: text('prefix').notNull(),
    /** SHA-256 of the whole token, hex. */
    hash: text('hash').notNull(),
    scopes: text('scopes').array().$type<TokenScope[]>().notNull(),
    /** Null: until revoked. */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    /** Written at most once a minute (TOKEN_USE_INTERVAL_MS), not on every request. */
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('api_tokens_prefix_idx').on(t.prefix), index('api_tokens_user_idx').on(t.userId)],
);
export type ApiTokenRow = typeof apiTokens.$inferSelect;
/** An export kept as it was first sent: its bytes in the file store under `fileId`, and what its answer's headers said. */
export interface KeptExport {
  fileId: string;
  filename: string;
  contentType: string;
  rows: number;
  withIssues: number;
  skipped: number;
  currencies?: string[];
}

/** What a request with an Idempotency-Key was first answered: an accepted upload, or an export. */
export type IdempotentAnswer = { upload: UploadAccepted } | { export: KeptExport };

/**
 * The Idempotency-Keys of the last 24 hours (common/src/idempotency.rules.ts), one per owner and
 * key: claimed before the first request does anything, answered when it is done (or removed when
 * it fails), so a repeat gets the same answer and two requests at once cannot both act.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    /** `user:<id>` or `anon:<id>`: an account's keys and an anonymous session's are apart. */
    owner: text('owner').notNull(),
    key: text('key').notNull(),
    /** SHA-256 of the first request (endpoint, file and fields, or body): a repeat must match it. */
    fingerprint: text('fingerprint').notNull(),
    /** The upload the first request made: deleting it forgets the key. */
    uploadId: uuid('upload_id').references(() => uploads.id, { onDelete: 'cascade' }),
    /** Null while the first request is being answered. */
    answer: jsonb('answer').$type<IdempotentAnswer>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('idempotency_keys_owner_key_idx').on(t.owner, t.key), index('idempotency_keys_created_idx').on(t.createdAt), index('idempotency_keys_upload_idx').on(t.uploadId)],
);
export type IdempotencyKeyRow = typeof idempotencyKeys.$inferSelect;

/** An account's webhook endpoint: where the events it chose are sent, and the secret they are signed with. */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    events: jsonb('events').$type<WebhookEvent[]>().notNull(),
    /** The signing key, as it is: signing needs it. The api shows it once, in the answer to the registration. */
    secret: text('secret').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    /** Why it is off (the user, or a day of failed deliveries); null while on. */
    disabledReason: text('disabled_reason'),
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [index('webhook_endpoints_user_idx').on(t.userId, t.createdAt)],
);

/**
 * One event (or test) sent to one endpoint, and how its attempts went. The row is the record:
 * the job that sends it carries its id only, and its attempts are counted here.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    endpointId: uuid('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    /** The payload's `id`: a redelivery sends the same event again under a row of its own. */
    eventId: uuid('event_id').notNull(),
    event: text('event').$type<WebhookDeliveryType>().notNull(),
    trigger: text('trigger').$type<WebhookTrigger>().notNull(),
    /** The JSON body exactly as it is sent, every attempt and every redelivery alike. */
    payload: text('payload').notNull(),
    status: text('status').$type<WebhookDeliveryStatus>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull(),
    lastHttpStatus: integer('last_http_status'),
    responseTimeMs: integer('response_time_ms'),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
  },
  (t) => [
    index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.createdAt),
    // The recovery sweep's deliveries: those not finished.
    index('webhook_deliveries_open_idx').on(t.createdAt).where(sql`${t.status} IN ('pending', 'retrying')`),
  ],
);

export type WebhookEndpointRow = typeof webhookEndpoints.$inferSelect;
export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;
