import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from './config.js';

describe('parseConfig', () => {
  it('gives the embedded defaults with an empty environment', () => {
    const config = parseConfig({}, '/srv/app');
    expect(config).toMatchObject({
      ROLES: ['api', 'worker'],
      PORT: 3000,
      REDIS_URL: 'redis://127.0.0.1:6379',
      pgliteDir: '/srv/app/.data/pglite',
      storageDir: '/srv/app/.data/uploads',
      ocrEngine: 'local',
      OCR_LANGS: ['eng', 'deu', 'fra', 'spa', 'por', 'ita', 'nld', 'jpn'],
      OCR_PADDLE: 'first',
      OCR_TESSERACT: 'wasm',
      STORAGE: 'local',
    });
    expect(config.DATABASE_URL).toBeUndefined();
  });

  it('trusts no proxy unless told which (X-Forwarded-For is otherwise anyone\'s to write)', () => {
    expect(parseConfig({}).TRUST_PROXY).toBe(false);
    expect(parseConfig({ TRUST_PROXY: '1' }).TRUST_PROXY).toBe(1);
    expect(parseConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8' }).TRUST_PROXY).toBe('loopback, 10.0.0.0/8');
  });

  it('lets webhooks reach no network but the public internet unless WEBHOOK_ALLOWED_NETWORKS names one', () => {
    expect(parseConfig({}).WEBHOOK_ALLOWED_NETWORKS).toEqual([]);
    expect(parseConfig({ WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1/32, fd00::/8' }).WEBHOOK_ALLOWED_NETWORKS).toHaveLength(2);
    expect(() => parseConfig({ WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1/32, localhost' })).toThrow('WEBHOOK_ALLOWED_NETWORKS: not a network in CIDR notation: localhost');
  });

  it('retries webhooks for a day unless the operator gives another schedule', () => {
    expect(parseConfig({}).WEBHOOK_RETRY_SCHEDULE_MS.reduce((a, b) => a + b, 0)).toBeGreaterThan(23 * 3600_000);
    expect(parseConfig({ WEBHOOK_RETRY_SCHEDULE_MS: '200, 400' }).WEBHOOK_RETRY_SCHEDULE_MS).toEqual([200, 400]);
    expect(() => parseConfig({ WEBHOOK_RETRY_SCHEDULE_MS: '200,soon' })).toThrow(ConfigError);
  });

  it('keeps /metrics closed unless METRICS_PUBLIC opens it', () => {
    expect(parseConfig({}).METRICS_PUBLIC).toBe(false);
    expect(parseConfig({ METRICS_PUBLIC: 'false' }).METRICS_PUBLIC).toBe(false);
    expect(parseConfig({ METRICS_PUBLIC: 'true' }).METRICS_PUBLIC).toBe(true);
    expect(() => parseConfig({ METRICS_PUBLIC: 'open' })).toThrow(ConfigError);
  });

  it('reads the operator’s exchange rates file, and names what is wrong with one it cannot use', () => {
    expect(parseConfig({}).exchangeRates).toBeNull();
    const dir = mkdtempSync(path.join(os.tmpdir(), 'rates-'));
    const good = path.join(dir, 'eurofxref-hist.csv');
    writeFileSync(good, 'Date,USD,GBP,\n2026-03-06,1.2,0.8,\n');
    expect(parseConfig({ EXCHANGE_RATES_FILE: good }).exchangeRates?.days).toEqual(['2026-03-06']);
    const bad = path.join(dir, 'rates.csv');
    writeFileSync(bad, 'USD,GBP\n1.2,0.8\n');
    expect(() => parseConfig({ EXCHANGE_RATES_FILE: bad })).toThrow('EXCHANGE_RATES_FILE: The exchange rates file does not start with a Date column (the ECB CSV layout).');
    expect(() => parseConfig({ EXCHANGE_RATES_FILE: path.join(dir, 'none.csv') })).toThrow(`EXCHANGE_RATES_FILE: cannot read ${path.join(dir, 'none.csv')}`);
  });

  it('lists every bad variable at once', () => {
    try {
      parseConfig({ PORT: 'eighty', REDIS_URL: 'http://x', WORKER_CONCURRENCY: '0', ROLES: 'api,cook' });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      const problems = (err as ConfigError).problems.map((p) => p.split(':')[0]);
      expect(problems.sort()).toEqual(['PORT', 'REDIS_URL', 'ROLES.1', 'WORKER_CONCURRENCY']);
    }
  });

  it('leaves e-mail intake off by default and wants its domain once a way in is set', () => {
    const off = parseConfig({});
    expect(off.INTAKE_SMTP_PORT).toBeUndefined();
    expect(off.IMAP_URL).toBeUndefined();
    expect(() => parseConfig({ INTAKE_SMTP_PORT: '2525' })).toThrow(/INTAKE_DOMAIN: required/);
    expect(() => parseConfig({ IMAP_URL: 'imaps://mail.example.test' })).toThrow(/INTAKE_DOMAIN: required/);
    expect(parseConfig({ INTAKE_SMTP_PORT: '2525', INTAKE_DOMAIN: 'In.Example.test' })).toMatchObject({ INTAKE_SMTP_PORT: 2525, INTAKE_DOMAIN: 'in.example.test', INTAKE_MAX_ATTACHMENTS: 20 });
    expect(() => parseConfig({ IMAP_URL: 'http://mail.example.test', INTAKE_DOMAIN: 'example.test' })).toThrow(/IMAP_URL/);
  });

  it('refuses a worker-only process on the embedded database', () => {
    expect(() => parseConfig({ ROLES: 'worker' })).toThrow(/PGlite database belongs to one process/);
    expect(parseConfig({ ROLES: 'worker', DATABASE_URL: 'postgres://db/app' }).ROLES).toEqual(['worker']);
  });

  it('runs several api processes only for an api-only process on PostgreSQL', () => {
    const db = { DATABASE_URL: 'postgres://localhost/receipts' };
    expect(parseConfig({}).API_PROCESSES).toBe(1);
    expect(parseConfig({ ...db, ROLES: 'api', API_PROCESSES: '4' }).API_PROCESSES).toBe(4);
    for (const env of [{ API_PROCESSES: '2' }, { ...db, ROLES: 'api,worker', API_PROCESSES: '2' }, { ...db, ROLES: 'worker', API_PROCESSES: '2' }]) {
      expect(() => parseConfig(env)).toThrow(/API_PROCESSES: more than one runs only with ROLES=api/);
    }
    expect(() => parseConfig({ ...db, ROLES: 'api', API_PROCESSES: '0' })).toThrow(ConfigError);
  });

  it('requires a session secret in production and Document AI ids for that engine', () => {
    expect(() => parseConfig({ NODE_ENV: 'production', OCR_ENGINE: 'documentai' })).toThrow(ConfigError);
    try {
      parseConfig({ NODE_ENV: 'production', OCR_ENGINE: 'documentai' });
    } catch (err) {
      expect((err as ConfigError).problems).toHaveLength(2);
    }
  });

  it('chooses Document AI when it is configured', () => {
    expect(parseConfig({ DOCUMENTAI_PROJECT_ID: 'p', DOCUMENTAI_PROCESSOR_ID: 'x' }).ocrEngine).toBe('documentai');
  });

  it('keeps originals in a bucket when told which, with both keys or neither', () => {
    expect(() => parseConfig({ STORAGE: 's3' })).toThrow(/S3_BUCKET: required when STORAGE=s3/);
    expect(() => parseConfig({ STORAGE: 's3', S3_BUCKET: 'receipts', S3_ACCESS_KEY_ID: 'id' })).toThrow(/set both or neither/);
    expect(() => parseConfig({ STORAGE: 's3', S3_BUCKET: 'receipts', S3_ENDPOINT: 'minio:9000' })).toThrow(/S3_ENDPOINT/);
    expect(parseConfig({ STORAGE: 's3', S3_BUCKET: 'receipts', S3_ENDPOINT: 'http://minio:9000', S3_FORCE_PATH_STYLE: 'true' })).toMatchObject({
      STORAGE: 's3',
      S3_BUCKET: 'receipts',
      S3_PREFIX: 'originals/',
      S3_REGION: 'us-east-1',
      S3_FORCE_PATH_STYLE: true,
    });
  });

  it('takes a vision model as the main engine or the second opinion only with its endpoint and model', () => {
    const vlm = { VLM_BASE_URL: 'http://ollama:11434/v1', VLM_MODEL: 'qwen2.5vl:7b' };
    const problems = (env: Record<string, string>) => {
      try {
        parseConfig(env);
        return [];
      } catch (err) {
        return (err as ConfigError).problems;
      }
    };
    expect(problems({ OCR_ENGINE: 'vlm' })).toEqual(['OCR_ENGINE: vlm needs VLM_BASE_URL and VLM_MODEL']);
    expect(problems({ VLM_SECOND_OPINION: 'true' })).toEqual(['VLM_SECOND_OPINION: needs VLM_BASE_URL and VLM_MODEL']);
    expect(problems({ VLM_BASE_URL: vlm.VLM_BASE_URL })).toEqual(['VLM_MODEL: VLM_BASE_URL and VLM_MODEL go together']);
    expect(problems({ ...vlm, VLM_BASE_URL: 'ftp://ollama/v1' })).toHaveLength(1);
    expect(problems({ ...vlm, VLM_RESPONSE_FORMAT: 'xml' })).toHaveLength(1);
    const config = parseConfig({ ...vlm, OCR_ENGINE: 'vlm', VLM_SECOND_OPINION: 'true' });
    expect(config).toMatchObject({ ocrEngine: 'vlm', VLM_TIMEOUT_MS: 120_000, VLM_RETRIES: 2, VLM_CONCURRENCY: 2, VLM_RESPONSE_FORMAT: 'json_schema', VLM_STREAM: false });
    // Configured, a vision model is available for re-extraction without replacing the default engine.
    expect(parseConfig(vlm).ocrEngine).toBe('local');
  });
});
