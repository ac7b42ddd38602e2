import { describe, expect, it } from 'vitest';
import { isServiceUnavailable } from './unavailable.js';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('isServiceUnavailable', () => {
  it.each([
    ['PostgreSQL refusing connections', withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')],
    ['PostgreSQL shutting down (57P01)', withCode('terminating connection due to administrator command', '57P01')],
    ['PostgreSQL starting up (57P03)', withCode('the database system is starting up', '57P03')],
    ['a connection failure (08006)', withCode('connection failure', '08006')],
    ['pg losing its socket', new Error('Connection terminated unexpectedly')],
    ['pg-pool waiting in vain', new Error('timeout exceeded when trying to connect')],
    ['ioredis without an offline queue', new Error("Stream isn't writeable and enableOfflineQueue options is false")],
    ['ioredis closed', new Error('Connection is closed.')],
    ['ioredis giving up', Object.assign(new Error('Reached the max retries per request limit (which is 1).'), { name: 'MaxRetriesPerRequestError' })],
    ['Drizzle wrapping a refused connection', new Error('Failed query: select 1', { cause: withCode('connect ECONNREFUSED', 'ECONNREFUSED') })],
    ['the object store slowing down (503) after the SDK\'s retries', Object.assign(new Error('Please reduce your request rate.'), { name: 'SlowDown', $fault: 'server' })],
  ])('%s: unavailable', (_what, err) => {
    expect(isServiceUnavailable(err)).toBe(true);
  });

  it.each([
    ['a unique violation', withCode('duplicate key value violates unique constraint', '23505')],
    ['a syntax error', withCode('syntax error at or near "selec"', '42601')],
    ['a bad file', new Error('This file is not a JPG, PNG, WebP, HEIC or PDF file.')],
    ['Drizzle wrapping a constraint error', new Error('Failed query: insert', { cause: withCode('null value', '23502') })],
    ['the object store refusing the keys', Object.assign(new Error('Access Denied'), { name: 'AccessDenied', $fault: 'client' })],
    ['not an error', 'ECONNREFUSED'],
    ['nothing', undefined],
  ])('%s: not unavailable', (_what, err) => {
    expect(isServiceUnavailable(err)).toBe(false);
  });
});
