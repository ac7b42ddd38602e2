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
      OCR_PADDLE: 'photos',
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

  it('refuses a worker-only process on the embedded database', () => {
    expect(() => parseConfig({ ROLES: 'worker' })).toThrow(/PGlite database belongs to one process/);
    expect(parseConfig({ ROLES: 'worker', DATABASE_URL: 'postgres://db/app' }).ROLES).toEqual(['worker']);
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
});
