import { existsSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { availableEngines, webhookAttempts } from '@receipts/common';
import {
  ApiTokenRepository,
  ApprovalRepository,
  AuditRepository,
  NotificationRepository,
  BillingRepository,
  MerchantRuleRepository,
  CategoryRepository,
  connectProducerRedis,
  createReceiptQueue,
  IdempotencyKeyRepository,
  createWebhookQueue,
  initMetrics,
  IntakeRepository,
  InvitationRepository,
  MemberRepository,
  QuotaService,
  ReceiptJobs,
  ReceiptRepository,
  SessionRepository,
  UploadDuplicateRepository,
  UploadReadRepository,
  UploadRepository,
  UserRepository,
  WorkspaceRepository,
  WebhookEvents,
  WebhookJobs,
  webhookPolicy,
  WebhookRepository,
  type Runtime,
} from '@receipts/infra';
import express, { type Request, type RequestHandler } from 'express';
import type { Redis } from 'ioredis';
import { AccountDataService } from './account/account-data.service.js';
import { AccountDeletionService } from './account/account-deletion.service.js';
import { AccountSettingsService } from './account/account-settings.service.js';
import { accountRoutes } from './account/account.routes.js';
import { adminRoutes, queueDashboard, requireAdmin } from './admin/admin.routes.js';
import { auditRoutes } from './audit/audit.routes.js';
import { AuditService } from './audit/audit.service.js';
import { AdminService } from './admin/admin.service.js';
import { approvalRoutes } from './approvals/approval.routes.js';
import { ApprovalService } from './approvals/approval.service.js';
import { AccountService } from './auth/account.service.js';
import { authRoutes } from './auth/auth.routes.js';
import { ProfileService } from './auth/profile.service.js';
import { KnownDevices, redisLimiters, SignInLimiter } from './auth/sign-in.limiter.js';
import { billingRoutes, stripeWebhookRoute } from './billing/billing.routes.js';
import { BillingService } from './billing/billing.service.js';
import { clientConfigRoutes } from './client-config.routes.js';
import { currencyRoutes } from './currency/currency.routes.js';
import { exportRoutes } from './export/export.routes.js';
import { ExportService } from './export/export.service.js';
import { errorHandler, notFound } from './http-error.js';
import { IdempotencyService } from './idempotency.service.js';
import { IntakeAddressService } from './intake/intake-address.service.js';
import { intakeRoutes } from './intake/intake.routes.js';
import { intakeFormat, startIntake, type IntakeHandle } from './intake/intake.server.js';
import { receiptLibraryRoutes } from './library/receipt-library.routes.js';
import { ReceiptLibraryService } from './library/receipt-library.service.js';
import { spendingRoutes } from './library/spending.routes.js';
import { SpendingService } from './library/spending.service.js';
import { linkBase } from './link-base.js';
import { requireUser, resolveOwner, sessionUnlessToken } from './owner.middleware.js';
import { notificationRoutes } from './notifications/notification.routes.js';
import { NotificationService } from './notifications/notification.service.js';
import { merchantRuleRoutes } from './rules/merchant-rule.routes.js';
import { categoryRoutes } from './categories/category.routes.js';
import { CategoryService } from './categories/category.service.js';
import { MerchantRuleService } from './rules/merchant-rule.service.js';
import { apiReferencePage, openApiRoutes } from './openapi/openapi.routes.js';
import { checkAnswers } from './route-spec.js';
import type { ApiMount } from './openapi/openapi.document.js';
import { metricsRoute, requestContext } from './request-context.js';
import { authRateLimit, requireXhrHeader, securityHeaders, type RateLimits } from './security.js';
import { DatabaseSessionStore, sessionMiddleware } from './session.js';
import { createSocketGateway, type SocketGateway } from './socket.gateway.js';
import { staticAssets } from './static-assets.js';
import { apiTokenRoutes } from './tokens/api-token.routes.js';
import { ApiTokenService } from './tokens/api-token.service.js';
import { bearerAuth, tokenRateLimiter } from './tokens/bearer-auth.middleware.js';
import { workspaceRoutes } from './workspaces/workspace.routes.js';
import { WorkspaceService } from './workspaces/workspace.service.js';
import { WorkspaceDeletionService } from './workspaces/workspace-deletion.service.js';
import { invitationLinkRoutes, invitationRoutes } from './invitations/invitation.routes.js';
import { InvitationService } from './invitations/invitation.service.js';
import { memberRoutes } from './members/member.routes.js';
import { MemberService } from './members/member.service.js';
import { workspaceUsageRoutes } from './workspaces/workspace-usage.routes.js';
import { WorkspaceUsageService } from './workspaces/workspace-usage.service.js';
import { spendingReportRoutes } from './spending-reports/spending-report.routes.js';
import { SpendingReportService } from './spending-reports/spending-report.service.js';
import { routeUploadEvents } from './upload-events.router.js';
import { uploadRoutes } from './uploads/upload.routes.js';
import { UploadService } from './uploads/upload.service.js';
import { UploadWaiters } from './uploads/upload-waiters.js';
import { webhookRoutes } from './webhooks/webhook.routes.js';
import { WebhookService } from './webhooks/webhook.service.js';

export interface ApiServer {
  server: http.Server;
  /** The Express app behind it (Socket.IO wraps it as the server's listener). */
  app: express.Express;
  /** E-mail intake, when configured (INTAKE_DOMAIN with INTAKE_SMTP_PORT or IMAP_URL). */
  intake: IntakeHandle | null;
  /**
   * Stops accepting connections, lets requests in flight finish for up to `timeoutMs`
   * (?wait=1 requests answer with the current state at once), closes the live connections so
   * browsers reconnect to another api, then closes its Redis connections.
   */
  close(timeoutMs?: number): Promise<void>;
}

export interface ApiServerOptions {
  /** Whether this process receives the e-mail intake (one api process of a cluster does). */
  intake?: boolean;
}

export async function startApiServer(runtime: Runtime, options: ApiServerOptions = {}): Promise<ApiServer> {
  const { config, log, bus } = runtime;
  const producer = await connectProducerRedis(config.REDIS_URL);
  producer.on('error', (err) => log.warn({ err: err.message }, 'redis producer error'));
  const services = apiServices(runtime, producer);
  checkAnswers(config.CHECK_API_ANSWERS);
  const app = apiApp(runtime, producer, services);
  const server = http.createServer(app);
  const { uploads, waiters, sessionStore } = services;
  const gateway = createSocketGateway(server, services.session, uploads, log);
  const events = await routeUploadEvents(bus, config.REDIS_URL, log, { gateway, waiters });
  const pruning = setInterval(() => {
    sessionStore.pruneExpired().catch((err: unknown) => log.warn({ err: (err as Error).message }, 'expired sessions not pruned; the next run tries again'));
  }, 3600_000);
  pruning.unref();

  await new Promise<void>((resolve) => server.listen(config.PORT, config.HOST, resolve));
  // Mail comes in beside the HTTP uploads, through the same upload service.
  const { mailIntake, intakeRows } = services;
  const intake: IntakeHandle | null = mailIntake && options.intake !== false ? await startIntake(config, mailIntake, { uploads, intake: intakeRows, mailer: runtime.mailer, log }) : null;
  return {
    server,
    app,
    intake,
    async close(timeoutMs = config.SHUTDOWN_TIMEOUT_MS) {
      clearInterval(pruning);
      await intake?.close();
      await drainConnections(server, gateway, waiters, timeoutMs);
      // Accepted uploads still being stored get their file and their job before Redis goes.
      await uploads.drain();
      await Promise.allSettled([events.close(), services.jobs.close(), services.webhookJobs.close()]);
      producer.disconnect();
    },
  };
}

/** The repositories and services of one api process, over the runtime's database, files, bus and mailer. */
function apiServices(runtime: Runtime, producer: Redis) {
  const { config, log, db, files, bus, mailer } = runtime;
  const jobs = new ReceiptJobs(createReceiptQueue(producer, config.QUEUE_PREFIX, log), producer, {
    prefix: config.QUEUE_PREFIX,
    attempts: config.JOB_ATTEMPTS,
    log,
  });
  const uploadRows = new UploadRepository(db);
  const users = new UserRepository(db);
  const billingRows = new BillingRepository(db);
  const receipts = new ReceiptRepository(db);
  const categoryRows = new CategoryRepository(db);
  const quota = new QuotaService(db, config.ADMIN_EMAILS);
  const uploadReads = new UploadReadRepository(db);
  const duplicates = new UploadDuplicateRepository(db);
  const idempotency = new IdempotencyService(new IdempotencyKeyRepository(db), files, log);
  // Events the api causes (a cancel, a correction) become webhook deliveries here; the worker sends them.
  const webhookRows = new WebhookRepository(db);
  const webhookJobs = new WebhookJobs(createWebhookQueue(producer, config.QUEUE_PREFIX, log));
  const webhooks = new WebhookEvents({ webhooks: webhookRows, jobs: webhookJobs, attempts: webhookAttempts(config.WEBHOOK_RETRY_SCHEDULE_MS), log });
  const uploads = new UploadService({ uploads: uploadRows, uploadReads, duplicates, jobs, quota, files, bus, webhooks, engines: availableEngines(config), log });
  const accounts = new AccountService(users, uploadRows, mailer, config.ADMIN_EMAILS);
  const profiles = new ProfileService(billingRows, accounts);
  const billing = new BillingService(billingRows, mailer, config, log);
  const secureCookies = config.NODE_ENV === 'production';
  const sessionStore = new DatabaseSessionStore(new SessionRepository(db), secureCookies);
  const workspaces = new WorkspaceRepository(db);
  const exports = new ExportService(receipts, workspaces, categoryRows, files, log, config.exchangeRates);
  const categories = new CategoryService(categoryRows, workspaces);
  const merchantRules = new MerchantRuleRepository(db);
  const rules = new MerchantRuleService(merchantRules, categories);
  const tokens = new ApiTokenService(new ApiTokenRepository(db), accounts);
  const audit = new AuditService(new AuditRepository(db));
  return {
    audit,
    jobs,
    webhookJobs,
    webhooks,
    webhookService: new WebhookService({ webhooks: webhookRows, jobs: webhookJobs, policy: webhookPolicy(config), accounts, log }),
    uploads,
    idempotency,
    quota,
    accounts,
    profiles,
    billing,
    exports,
    categories,
    rules,
    tokens,
    uploadRows,
    uploadReads,
    duplicates,
    users,
    receipts,
    workspaces,
    merchantRules,
    secureCookies,
    sessionStore,
    waiters: new UploadWaiters(),
    intakeRows: new IntakeRepository(db),
    mailIntake: intakeFormat(config),
    session: sessionMiddleware({ store: sessionStore, secret: config.sessionSecret, secure: secureCookies }),
    deletion: new AccountDeletionService(accounts, billing, uploads, idempotency, workspaces),
    data: new AccountDataService(exports, uploadReads, files, { profiles, categories, rules, workspaces, audit }, log),
  };
}
type ApiServices = ReturnType<typeof apiServices>;

/** The HTTP side: health and metrics, the api's routes in the order requests meet them, then the web app. */
function apiApp(runtime: Runtime, producer: Redis, s: ApiServices): express.Express {
  const { config, log } = runtime;
  initMetrics({ role: config.ROLES.join('+'), queue: s.jobs.queue });
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.TRUST_PROXY);
  app.use(requestContext(log));
  app.get('/metrics', metricsRoute(config));
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    const checks = await runtime.ready();
    res.status(checks.database && checks.redis ? 200 : 503).json(checks);
  });
  app.use(securityHeaders({ analytics: Boolean(config.ANALYTICS_MEASUREMENT_ID), publicUrl: config.publicUrl }));
  // Stripe's signed webhook reads its raw body, before the session and the JSON parser.
  const stripe: ApiMount = { path: '', router: stripeWebhookRoute(s.billing) };
  app.use('/api', stripe.router);
  // A request with an access token is the token's alone: no cookie, session or CSRF header (bearerAuth).
  const bearer = bearerAuth(s.tokens, tokenRateLimiter(producer, config.QUEUE_PREFIX, config.TOKEN_RATE_LIMIT_PER_MINUTE), log);
  app.use('/api', bearer, requireXhrHeader(['/stripe/webhook']), sessionUnlessToken(s.session), resolveOwner(s.workspaces), express.json({ limit: '100kb' }));
  mountRateLimits(app, runtime, producer);
  const mounts = apiMounts(runtime, producer, s);
  const documented: ApiMount[] = [stripe, ...mounts];
  const reference: GuardedMount = { path: '', router: openApiRoutes(documented, { publicUrl: config.publicUrl }) };
  documented.push(reference);
  // For the test that no router under /api is left out of the document.
  app.locals.documentedMounts = documented;
  for (const mount of [...mounts, reference]) app.use(`/api${mount.path}`, ...(mount.before ?? []), mount.router);
  app.use('/api', (_req, _res, next) => next(notFound('No such API route')));
  // The dashboard is a page of its own: same session and admin check, not under /api.
  app.use('/admin/queues', s.session, resolveOwner(s.workspaces), requireAdmin(s.accounts), queueDashboard(s.jobs.queue));
  app.use('/docs/api', apiReferencePage());
  if (existsSync(config.webDistDir)) {
    app.use(staticAssets(config.webDistDir));
    // The single-page app routes every other path itself.
    app.get('/{*path}', (_req, res) => res.sendFile(path.join(config.webDistDir, 'index.html')));
  }
  app.use(errorHandler(log));
  return app;
}

/** The rate limits of sign-up, sign-in and the account's own routes, before their routers. */
function mountRateLimits(app: express.Express, runtime: Runtime, producer: Redis): void {
  const { config, log } = runtime;
  const limit = (name: string, limits: RateLimits) => authRateLimit(producer, config.QUEUE_PREFIX, log, name, limits);
  app.use('/api/auth/register', limit('register', { perAddress: 30, perEmail: 10 }));
  // Counts the mails an address is sent, apart from sign-in: asking for links locks nobody out.
  app.use('/api/auth/forgot-password', limit('forgot', { perAddress: 30, perEmail: 10 }));
  // Every attempt at a token is a guess once the link is used: few per address.
  app.use('/api/auth/reset-password', limit('reset', { perAddress: 10 }));
  app.use('/api/auth/verify-email', limit('verify', { perAddress: 20 }));
  // Each one mails the account's own address: few per account, whatever address asks.
  app.use('/api/auth/resend-verification', limit('resend', { perAddress: 10, perAccount: 5 }));
  // The password is checked again on each of these: few guesses per address.
  app.use(['/api/user/password', '/api/user/email', '/api/user/account'], limit('account', { perAddress: 30 }));
  // Each invitation mails someone: few per account. Not counted per invited address, which would
  // let anyone who asks on its behalf (signed in or not) stop its invitations.
  app.post(['/api/workspaces/current/invitations', '/api/workspaces/current/invitations/:id/resend'], limit('invite', { perAddress: 60, perAccount: 30 }));
  // Tokens are 256 random bits: a bound on guessing them costs the invited nothing.
  app.use('/api/invitations', limit('invitation', { perAddress: 60 }));
}

/** A router of the api with the handlers that guard all of it, mounted under /api in this order. */
type GuardedMount = ApiMount & { before?: RequestHandler[] };

/** The api's routers in the order requests meet them; the API document describes the same list. */
function apiMounts(runtime: Runtime, producer: Redis, s: ApiServices): GuardedMount[] {
  const { config, log } = runtime;
  const links = (req: Request) => linkBase(req, config);
  // Sign-in has limits of its own (sign-in.limiter.ts): none a stranger can use to shut an owner out.
  const signIns = {
    limiter: new SignInLimiter(redisLimiters(producer, config.QUEUE_PREFIX), {
      windowSeconds: config.SIGNIN_WINDOW_SECONDS,
      slowdownMaxSeconds: config.SIGNIN_SLOWDOWN_MAX_SECONDS,
    }),
    devices: new KnownDevices(config.sessionSecret, s.secureCookies),
  };
  const settings = new AccountSettingsService(s.users, s.accounts);
  const admin = new AdminService(s.users, s.uploadRows, s.uploadReads, s.jobs, config.ADMIN_EMAILS);
  const library = new ReceiptLibraryService(s.receipts, s.duplicates, s.uploads, runtime.files, s.merchantRules, s.categories, s.webhooks, log);
  const approvals = new ApprovalService(new ApprovalRepository(runtime.db), s.receipts, s.exports, s.audit, s.users, runtime.mailer, log);
  return [
    // First of the api's routes: an upload, the busiest request, walks past no other router.
    { path: '', router: uploadRoutes(s.uploads, s.idempotency, s.waiters, config.WAIT_TIMEOUT_MS) },
    { path: '/auth', router: authRoutes(s.accounts, s.profiles, s.users, log, signIns, links) },
    { path: '/user', router: accountRoutes({ users: s.users, workspaces: s.workspaces, profiles: s.profiles, quota: s.quota, deletion: s.deletion, settings, data: s.data, links, log }) },
    { path: '/user', router: merchantRuleRoutes(s.rules) },
    { path: '/user', router: categoryRoutes(s.categories) },
    { path: '/user', router: apiTokenRoutes(s.tokens, s.users) },
    { path: '', router: currencyRoutes() },
    { path: '', router: clientConfigRoutes(config) },
    { path: '', router: billingRoutes(s.billing, s.users, s.accounts) },
    { path: '/admin', router: adminRoutes(admin), before: [requireAdmin(s.accounts)] },
    { path: '/intake', router: intakeRoutes(new IntakeAddressService(s.intakeRows, s.mailIntake)), before: [requireUser] },
    { path: '', router: spendingRoutes(new SpendingService(s.receipts)) },
    { path: '', router: receiptLibraryRoutes(library) },
    { path: '', router: exportRoutes(s.exports, s.idempotency, s.audit, log) },
    { path: '/user', router: webhookRoutes(s.webhookService, s.users) },
    ...workspaceMounts(runtime, s, links),
    { path: '/workspaces', router: workspaceUsageRoutes(new WorkspaceUsageService(s.quota)) },
    { path: '/workspaces', router: spendingReportRoutes(new SpendingReportService(s.receipts, s.workspaces)) },
    { path: '', router: approvalRoutes(approvals, links, log) },
    { path: '/notifications', router: notificationRoutes(new NotificationService(new NotificationRepository(runtime.db))) },
    { path: '/workspaces', router: auditRoutes(s.audit) },
  ];
}

/** The workspace routes: the workspaces themselves, their members and invitations, and the invitation links. */
function workspaceMounts(runtime: Runtime, s: ApiServices, links: (req: Request) => string): GuardedMount[] {
  const workspaces = new WorkspaceService(s.workspaces, s.accounts);
  const invitations = new InvitationService(new InvitationRepository(runtime.db), runtime.mailer, runtime.config.ADMIN_EMAILS);
  return [
    { path: '/workspaces', router: workspaceRoutes(workspaces, s.users, new WorkspaceDeletionService(s.workspaces, s.uploads)) },
    { path: '/workspaces/current', router: memberRoutes(new MemberService(new MemberRepository(runtime.db), s.workspaces), workspaces) },
    { path: '/workspaces/current/invitations', router: invitationRoutes({ invitations, workspaces, users: s.users, links }) },
    { path: '/invitations', router: invitationLinkRoutes({ invitations, workspaces }) },
  ];
}

/**
 * Stops accepting connections and lets requests in flight finish for up to `timeoutMs`, then
 * closes what is still open.
 */
async function drainConnections(server: http.Server, gateway: SocketGateway, waiters: UploadWaiters, timeoutMs: number): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  waiters.releaseAll();
  // Closing the transports (not the sockets) reads as a dropped connection to Socket.IO
  // clients, so they reconnect (to another api behind the proxy) instead of giving up.
  gateway.io.engine.close();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, timeoutMs);
  });
  await Promise.race([closed, deadline]);
  clearTimeout(timer);
  server.closeAllConnections();
}
