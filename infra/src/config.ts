import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  availableEngines,
  ENGINE_NAMES,
  ExchangeRatesFileError,
  normalizeEmail,
  parseEcbRates,
  parseNetworkList,
  WEBHOOK_RETRY_SCHEDULE_MS,
  type EngineName,
  type ExchangeRates,
} from '@receipts/common';
import { z } from 'zod';
import { decodeConfigShape } from './config.decode.js';

export { decodeConfigSchema, type DecodeConfig } from './config.decode.js';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');
const int = (min: number) => z.coerce.number().int().min(min);

/**
 * The intake SMTP listener's limits by default (the INTAKE_SMTP_* settings), also for a listener
 * started without a config. Three connections an address (a relay opening more is asked to retry
 * later); thirty in all, since each may hold a message of up to INTAKE_MAX_MESSAGE_BYTES in memory
 * (750 MiB at most with the default 25 MiB); 30 s of silence (RFC 5321 allows minutes, but a
 * sending server stalling that long is rarer than a client holding a slot on purpose); ten minutes
 * a session, room for a 25 MiB message at 43 KB/s.
 */
export const INTAKE_SMTP_LIMITS = { maxConnections: 30, maxConnectionsPerAddress: 3, idleTimeoutMs: 30_000, maxSessionMs: 600_000 } as const;

/** Every setting of every process, parsed once at start-up. `.env.example` documents them. */
export const configSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  /** Which roles this process runs: `api`, `worker`, or both (the embedded default). */
  ROLES: z
    .string()
    .default('api,worker')
    .transform((s) => s.split(',').map((r) => r.trim()).filter(Boolean))
    .pipe(z.array(z.enum(['api', 'worker'])).min(1)),
  PORT: int(0).max(65535).default(3000),
  /**
   * Api processes sharing PORT (node:cluster), for an api-only process on PostgreSQL: a burst of
   * uploads is then served by every core, not one event loop. 1 runs the api in this process.
   */
  API_PROCESSES: int(1).max(64).default(1),
  HOST: z.string().default('0.0.0.0'),
  /**
   * Express "trust proxy": which hops may set X-Forwarded-For (the client address counts for
   * quotas and rate limits). Off by default: without a proxy in front, any client could name
   * itself; a hop count or a list of addresses/subnets (`loopback, 10.0.0.0/8`) turns it on.
   */
  TRUST_PROXY: z
    .string()
    .default('false')
    .transform((s): boolean | number | string => (s === 'false' ? false : /^\d+$/.test(s) ? Number(s) : s)),
  /**
   * Hold every api answer to the API document (api/src/route-spec.ts): a JSON answer that the
   * document does not describe becomes a 500. For tests; off in production.
   */
  CHECK_API_ANSWERS: bool.default(false),
  /** /healthz and /readyz of a worker-only process (0 picks a free port). */
  WORKER_HEALTH_PORT: int(0).max(65535).default(3001),
  /** PostgreSQL server; unset means the embedded PGlite under DATA_DIR. */
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
  DATA_DIR: z.string().default('.data'),
  REDIS_URL: z.url({ protocol: /^rediss?$/ }).default('redis://127.0.0.1:6379'),
  /** Start a redis-server under DATA_DIR when none answers at a local REDIS_URL. */
  REDIS_AUTOSTART: bool.default(true),
  /** Key prefix for BullMQ and the pub/sub channels: lets deployments (and test runs) share a Redis. */
  QUEUE_PREFIX: z.string().regex(/^[\w-]+$/).default('receipts'),
  /** Where originals are kept: a directory (`local`, STORAGE_DIR) or an S3-compatible bucket (`s3`, the S3_* settings). */
  STORAGE: z.enum(['local', 's3']).default('local'),
  STORAGE_DIR: z.string().optional(),
  S3_BUCKET: z.string().min(3).optional(),
  /** Key prefix of the originals inside the bucket. */
  S3_PREFIX: z.string().default('originals/'),
  S3_REGION: z.string().default('us-east-1'),
  /** Another S3-compatible service (MinIO, R2, Ceph …); unset means AWS S3 in S3_REGION. */
  S3_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  /** Bucket in the path (`endpoint/bucket/key`) instead of the host name: MinIO and most self-hosted stores need it. */
  S3_FORCE_PATH_STYLE: bool.default(false),
  /** Both or neither; neither means the AWS SDK's own chain (environment, instance or task role, profile). */
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  WEB_DIST_DIR: z.string().optional(),
  /**
   * Reference exchange rates in the ECB's CSV layout (eurofxref-hist.csv), provided by the
   * operator: with it, an export can add each total converted to a home currency at its day's
   * rate. Without it nothing is converted; no rate is ever made up or fetched.
   */
  EXCHANGE_RATES_FILE: z.string().optional(),
  SESSION_SECRET: z.string().min(16).optional(),
  /** Failed sign-ins are counted over a window this long (README, "Sign-in limits"). */
  SIGNIN_WINDOW_SECONDS: int(1).default(15 * 60),
  /** The longest an account under attack makes a source wait between its own tries (the wait doubles up to it). */
  SIGNIN_SLOWDOWN_MAX_SECONDS: int(1).default(60),
  /** Requests one personal access token may make a minute, counted across api processes (429 with Retry-After past it). */
  TOKEN_RATE_LIMIT_PER_MINUTE: int(1).default(120),
  /** OCR slots of a worker process (one core each); it holds JOBS_AHEAD jobs more (receipt.worker.ts). */
  WORKER_CONCURRENCY: int(1).max(64).default(Math.max(1, os.availableParallelism())),
  /** A standard job waiting longer than this is served alongside express ones, so it never starves. */
  STANDARD_MAX_WAIT_MS: int(1000).default(10 * 60_000),
  /** BullMQ lock: a worker that dies mid-job hands it over once this lapses. */
  JOB_LOCK_MS: int(1000).default(30_000),
  STALLED_CHECK_MS: int(500).default(15_000),
  JOB_ATTEMPTS: int(1).max(10).default(3),
  /** One run of a job past this fails as an attempt (a backstop: each step has its own bound). */
  JOB_TIMEOUT_MS: int(1000).default(10 * 60_000),
  SHUTDOWN_TIMEOUT_MS: int(0).default(30_000),
  ...decodeConfigShape,
  /** How long POST /api/ocr?wait=1 holds the request before answering with the current state. */
  WAIT_TIMEOUT_MS: int(1000).default(5 * 60_000),
  /** Originals are deleted this many days after upload (spec privacy: 90); the extracted data stays. */
  ORIGINAL_RETENTION_DAYS: int(1).default(90),
  /** How often the retention sweep looks for originals due for deletion. */
  RETENTION_SWEEP_MS: int(1000).default(3600_000),
  /**
   * How often a worker looks for uploads whose job Redis no longer holds (a Redis restart without
   * persistence, a failure that could not be recorded) and queues them again; also the age an
   * upload must reach before the sweep touches it.
   */
  RECOVERY_SWEEP_MS: int(500).default(30_000),
  /** Apply pending migrations at start-up; compose lets only the api do it. */
  RUN_MIGRATIONS: bool.default(true),
  /** When set, GET /metrics asks for `Authorization: Bearer <token>`. */
  METRICS_TOKEN: z.string().min(16).optional(),
  /** Without a token, /metrics answers only when this opens it to anyone who can reach the port; else 404. */
  METRICS_PUBLIC: bool.default(false),
  OCR_ENGINE: z.enum(ENGINE_NAMES).optional(),
  /** Languages the local engine may read in (each an @tesseract.js-data package); each receipt gets the one it needs. */
  OCR_LANGS: z
    .string()
    .default('eng,deu,fra,spa,por,ita,nld,jpn')
    .transform((s) => s.split(/[+,]/).map((l) => l.trim()).filter(Boolean)),
  /**
   * Where the local engine's tesseract runs: tesseract.js in WebAssembly (`wasm`, the default,
   * needs nothing but npm), the tesseract program installed on the host (`native`, Debian's
   * tesseract-ocr), or native when the program answers at start-up and wasm otherwise (`auto`).
   * Both read the language models of the npm packages. wasm is the embedded default, needing
   * nothing but npm; the worker image, which has the program, runs `auto` (the program, kept
   * running, costs about a quarter less CPU a receipt: README, "Extraction").
   */
  OCR_TESSERACT: z.enum(['auto', 'wasm', 'native']).default('wasm'),
  /** PaddleOCR in the local engine: first for every page, tesseract the second opinion (first); first for photos only (photos); only for pages tesseract reads poorly (fallback); never; or alone (always). */
  OCR_PADDLE: z.enum(['never', 'fallback', 'photos', 'first', 'always']).default('first'),
  DOCUMENTAI_PROJECT_ID: z.string().optional(),
  DOCUMENTAI_LOCATION: z.string().default('us'),
  DOCUMENTAI_PROCESSOR_ID: z.string().optional(),
  /** Host (and optional port) of the Document AI endpoint; a local stand-in in tests. */
  DOCUMENTAI_ENDPOINT: z.string().optional(),
  /**
   * A vision-language model behind an OpenAI-compatible chat-completions endpoint (Ollama, vLLM,
   * LM Studio, llama.cpp server, a hosted provider): the base URL up to `/v1`, the model's name and,
   * where the server wants one, a key. With the first two set the `vlm` engine is available.
   */
  VLM_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
  VLM_MODEL: z.string().optional(),
  VLM_API_KEY: z.string().optional(),
  /** One request to the model, from sending to the last token; a slower answer is abandoned and tried again. */
  VLM_TIMEOUT_MS: int(1000).default(120_000),
  /** Tries after the first on a timeout, a refused connection, 429 or 5xx, with exponential backoff (Retry-After obeyed up to 30 s). */
  VLM_RETRIES: int(0).max(10).default(2),
  /** Requests this process sends to one endpoint at once; the rest wait their turn. */
  VLM_CONCURRENCY: int(1).max(64).default(2),
  /** Pages are scaled down to at most this many pixels before they are sent (the model's image budget). */
  VLM_MAX_IMAGE_PIXELS: int(100_000).max(20_000_000).default(1_600_000),
  /**
   * How the answer is constrained: a JSON Schema (`json_schema`, where the server supports it),
   * any JSON object (`json_object`), or the schema in the prompt only (`prompt`). Either way the
   * answer is parsed strictly, and a malformed one is sent back once for repair.
   */
  VLM_RESPONSE_FORMAT: z.enum(['json_schema', 'json_object', 'prompt']).default('json_schema'),
  /** Ask for the answer as a stream of server-sent events (the timeout then also covers a stalled stream). */
  VLM_STREAM: bool.default(false),
  /** Ask the model for a second opinion on receipts the local readers read poorly (the PaddleOCR fallback's decision point). */
  VLM_SECOND_OPINION: bool.default(false),
  /** Price per million prompt and completion tokens, for the cost counter in /metrics (a hosted model); unset counts tokens only. */
  VLM_PRICE_INPUT_PER_MTOK: z.coerce.number().nonnegative().optional(),
  VLM_PRICE_OUTPUT_PER_MTOK: z.coerce.number().nonnegative().optional(),
  /** Where links in e-mails point; unset: the address of the request that mails them (linkBase in api), else http://localhost:PORT. */
  PUBLIC_URL: z.url().optional(),
  /** SMTP server for e-mail (smtp://user:pass@host:port); unset writes mail under DATA_DIR/mail. */
  SMTP_URL: z.url({ protocol: /^smtps?$/ }).optional(),
  MAIL_FROM: z.string().default('Receipts <no-reply@receipts.local>'),
  /**
   * E-mail intake: the domain of the accounts' intake addresses (`<token>@INTAKE_DOMAIN`, with
   * INTAKE_LOCAL_PREFIX before the token, e.g. `receipts+` for a mailbox with plus-addressing).
   * Intake is on when this is set and a way in is: the SMTP listener, an IMAP mailbox, or both.
   */
  INTAKE_DOMAIN: z
    .string()
    .regex(/^[a-z0-9.-]+\.[a-z]{2,}$/i, 'must be a domain name')
    .transform((s) => s.toLowerCase())
    .optional(),
  INTAKE_LOCAL_PREFIX: z.string().regex(/^[a-z0-9._+-]*$/i, 'letters, digits and . _ + - only').default(''),
  /** Port of the intake SMTP listener (for an MX record or a relay); unset: no listener. 0 picks a free port. */
  INTAKE_SMTP_PORT: int(0).max(65535).optional(),
  INTAKE_SMTP_HOST: z.string().default('0.0.0.0'),
  /** Connections the SMTP listener holds at once; one more is answered 421 (try later). */
  INTAKE_SMTP_MAX_CONNECTIONS: int(1).max(10_000).default(INTAKE_SMTP_LIMITS.maxConnections),
  /** Connections one client address (an IPv6 client: its /64) may hold at once; one more is answered 421. */
  INTAKE_SMTP_MAX_CONNECTIONS_PER_ADDRESS: int(1).max(10_000).default(INTAKE_SMTP_LIMITS.maxConnectionsPerAddress),
  /** Silence from an SMTP client, in a command or in the middle of a message, after which it is answered 421 and dropped. */
  INTAKE_SMTP_IDLE_TIMEOUT_MS: int(100).default(INTAKE_SMTP_LIMITS.idleTimeoutMs),
  /** How long one SMTP connection may last however busy it is (a client trickling bytes); then 421 and dropped. */
  INTAKE_SMTP_MAX_SESSION_MS: int(1000).default(INTAKE_SMTP_LIMITS.maxSessionMs),
  /** The largest message taken (SMTP SIZE; an IMAP message above it is not fetched). */
  INTAKE_MAX_MESSAGE_BYTES: int(1024).default(25 * 1024 * 1024),
  /** Attachments one message may carry; more and the whole message is refused. */
  INTAKE_MAX_ATTACHMENTS: int(1).max(1000).default(20),
  /** Wall time one message may take to read (MIME, HTML to text) on its thread; past it the message is refused. */
  INTAKE_READ_TIMEOUT_MS: int(100).default(10_000),
  /** The mail-reading thread's heap; a message that needs more is refused. */
  INTAKE_READ_MAX_HEAP_MB: int(32).max(4096).default(256),
  /** An IMAP mailbox to poll for intake mail: imap://host:143 or imaps://host:993 (credentials below or in the URL). */
  IMAP_URL: z.url({ protocol: /^imaps?$/ }).optional(),
  IMAP_USER: z.string().optional(),
  IMAP_PASSWORD: z.string().optional(),
  IMAP_MAILBOX: z.string().default('INBOX'),
  IMAP_POLL_MS: int(1000).default(60_000),
  /** What happens to a message once handled: marked \Seen (and left), or deleted and expunged. */
  IMAP_AFTER_PROCESSING: z.enum(['seen', 'delete']).default('seen'),
  /**
   * Where a message that cannot be read (past a bound, or failing) is moved, for the operator to
   * look at; unset: it stays in the mailbox flagged \Flagged and \Seen. Either way the poller goes on.
   */
  IMAP_SET_ASIDE_MAILBOX: z.string().min(1).optional(),
  /**
   * Networks webhooks may reach besides the public internet, in CIDR (`127.0.0.1/32, 10.1.0.0/16`).
   * None by default: no webhook reaches a loopback, private, link-local, carrier-grade NAT,
   * unique-local, multicast or metadata address, nor plain http in production.
   */
  WEBHOOK_ALLOWED_NETWORKS: z
    .string()
    .default('')
    .transform((s, ctx) => {
      const { networks, invalid } = parseNetworkList(s);
      if (invalid.length > 0) ctx.addIssue({ code: 'custom', message: `not a network in CIDR notation: ${invalid.join(', ')}` });
      return networks;
    }),
  /** The waits (ms) between the attempts of an event's delivery; the default spreads 10 attempts over a day (WEBHOOK_RETRY_SCHEDULE_MS in common). */
  WEBHOOK_RETRY_SCHEDULE_MS: z
    .string()
    .default(WEBHOOK_RETRY_SCHEDULE_MS.join(','))
    .transform((s) => s.split(',').map((n) => n.trim()).filter(Boolean))
    .pipe(z.array(z.string().regex(/^[1-9]\d*$/, 'a comma-separated list of milliseconds').transform(Number)).max(30)),
  /** Webhook deliveries a worker process sends at once (they wait on the network, not the CPU). */
  WEBHOOK_CONCURRENCY: int(1).max(256).default(10),
  /** Comma-separated addresses that are admins whatever their userType, once the address is confirmed. */
  ADMIN_EMAILS: z
    .string()
    .default('')
    .transform((s) => s.split(',').map(normalizeEmail).filter(Boolean)),
  STRIPE_SECRET_KEY: z.string().optional(),
  STRIPE_WEBHOOK_SECRET: z.string().optional(),
  STRIPE_PUBLISHABLE_KEY: z.string().optional(),
  STRIPE_PRICE_STARTER: z.string().optional(),
  STRIPE_PRICE_PROFESSIONAL: z.string().optional(),
  STRIPE_PRICE_BUSINESS: z.string().optional(),
  STRIPE_PRICE_ENTERPRISE: z.string().optional(),
  /** A Stripe stand-in (tests); unset means api.stripe.com. */
  STRIPE_API_HOST: z.string().optional(),
  STRIPE_API_PORT: z.coerce.number().int().optional(),
  STRIPE_API_PROTOCOL: z.enum(['http', 'https']).optional(),
  /** Without Stripe keys, activate plans locally so the flow can be tried (default: on outside production). */
  BILLING_TEST_MODE: bool.optional(),
  /** Google Analytics 4 measurement id for the web app; unset means no analytics at all. */
  ANALYTICS_MEASUREMENT_ID: z.string().regex(/^G-[A-Z0-9]{4,20}$/, 'must look like G-XXXXXXXXXX').optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type RawConfig = z.infer<typeof configSchema>;

export interface Config extends RawConfig {
  storageDir: string;
  pgliteDir: string;
  webDistDir: string;
  sessionSecret: string;
  ocrEngine: EngineName;
  publicUrl: string;
  billingTestMode: boolean;
  stripePrices: Record<'starter' | 'professional' | 'business' | 'enterprise', string | undefined>;
  /** The operator's reference rates (EXCHANGE_RATES_FILE), read at start; null without one. */
  exchangeRates: ExchangeRates | null;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/** Parses the environment; throws a ConfigError naming every bad variable at once. */
export function parseConfig(env: NodeJS.ProcessEnv = process.env, repoRoot = process.cwd()): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = configSchema.safeParse(cleaned);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
  }
  const raw = parsed.data;
  const problems: string[] = [];
  if (raw.NODE_ENV === 'production' && !raw.SESSION_SECRET) problems.push('SESSION_SECRET: required in production');
  const documentAiConfigured = availableEngines(raw).includes('documentai');
  if (raw.OCR_ENGINE === 'documentai' && !documentAiConfigured) {
    problems.push('OCR_ENGINE: documentai needs DOCUMENTAI_PROJECT_ID and DOCUMENTAI_PROCESSOR_ID');
  }
  const vlmConfigured = availableEngines(raw).includes('vlm');
  if (Boolean(raw.VLM_BASE_URL) !== Boolean(raw.VLM_MODEL)) problems.push('VLM_MODEL: VLM_BASE_URL and VLM_MODEL go together');
  else if (raw.OCR_ENGINE === 'vlm' && !vlmConfigured) problems.push('OCR_ENGINE: vlm needs VLM_BASE_URL and VLM_MODEL');
  else if (raw.VLM_SECOND_OPINION && !vlmConfigured) problems.push('VLM_SECOND_OPINION: needs VLM_BASE_URL and VLM_MODEL');
  if (!raw.DATABASE_URL && !(raw.ROLES.includes('api') && raw.ROLES.includes('worker'))) {
    problems.push('ROLES: the embedded PGlite database belongs to one process, so it must run api,worker (or set DATABASE_URL)');
  }
  if (raw.API_PROCESSES > 1 && (raw.ROLES.length !== 1 || raw.ROLES[0] !== 'api')) {
    problems.push('API_PROCESSES: more than one runs only with ROLES=api (and DATABASE_URL); workers scale with WORKER_CONCURRENCY and replicas');
  }
  if (raw.STORAGE === 's3' && !raw.S3_BUCKET) problems.push('S3_BUCKET: required when STORAGE=s3');
  if (!raw.S3_ACCESS_KEY_ID !== !raw.S3_SECRET_ACCESS_KEY) problems.push('S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: set both or neither');
  if (raw.NODE_ENV === 'production' && raw.STRIPE_SECRET_KEY) {
    for (const name of ['STRIPE_WEBHOOK_SECRET', 'STRIPE_PRICE_STARTER', 'STRIPE_PRICE_PROFESSIONAL', 'STRIPE_PRICE_BUSINESS', 'STRIPE_PRICE_ENTERPRISE'] as const) {
      if (!raw[name]) problems.push(`${name}: required when STRIPE_SECRET_KEY is set in production`);
    }
  }
  if ((raw.INTAKE_SMTP_PORT !== undefined || raw.IMAP_URL) && !raw.INTAKE_DOMAIN) {
    problems.push('INTAKE_DOMAIN: required when INTAKE_SMTP_PORT or IMAP_URL is set (the domain of the intake addresses)');
  }
  let exchangeRates: ExchangeRates | null = null;
  if (raw.EXCHANGE_RATES_FILE) {
    const file = path.resolve(repoRoot, raw.EXCHANGE_RATES_FILE);
    try {
      exchangeRates = parseEcbRates(readFileSync(file, 'utf8'));
    } catch (err) {
      problems.push(`EXCHANGE_RATES_FILE: ${err instanceof ExchangeRatesFileError ? err.message : `cannot read ${file}`}`);
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
  const dataDir = path.resolve(repoRoot, raw.DATA_DIR);
  return {
    ...raw,
    storageDir: path.resolve(repoRoot, raw.STORAGE_DIR ?? path.join(dataDir, 'uploads')),
    pgliteDir: path.join(dataDir, 'pglite'),
    webDistDir: path.resolve(repoRoot, raw.WEB_DIST_DIR ?? 'web/dist'),
    // A fixed development secret keeps sessions valid across restarts and api processes.
    sessionSecret: raw.SESSION_SECRET ?? 'development-only-session-secret',
    ocrEngine: raw.OCR_ENGINE ?? (documentAiConfigured ? 'documentai' : 'local'),
    billingTestMode: raw.BILLING_TEST_MODE ?? raw.NODE_ENV !== 'production',
    stripePrices: {
      starter: raw.STRIPE_PRICE_STARTER,
      professional: raw.STRIPE_PRICE_PROFESSIONAL,
      business: raw.STRIPE_PRICE_BUSINESS,
      enterprise: raw.STRIPE_PRICE_ENTERPRISE,
    },
    publicUrl: (raw.PUBLIC_URL ?? `http://localhost:${raw.PORT}`).replace(/\/$/, ''),
    exchangeRates,
  };
}

/** For process entry points: parse or print every problem and exit. */
export function loadConfigOrExit(env: NodeJS.ProcessEnv = process.env): Config {
  try {
    return parseConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
}
