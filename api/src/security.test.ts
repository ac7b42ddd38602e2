import type { Request, Response } from 'express';
import { describe, expect, it } from 'vitest';
import { securityHeaders, tooManyAttempts } from './security.js';

/** The Content-Security-Policy the middleware sets for a public URL. */
function policyFor(publicUrl: string): string {
  const headers = new Map<string, string>();
  const res = { setHeader: (name: string, value: string) => headers.set(name.toLowerCase(), value), removeHeader: () => undefined };
  securityHeaders({ publicUrl })({ method: 'GET', headers: {} } as Request, res as unknown as Response, () => undefined);
  return headers.get('content-security-policy') ?? '';
}

describe('securityHeaders', () => {
  it('asks browsers to upgrade to https only when the service is served over https', () => {
    expect(policyFor('https://receipts.example')).toContain('upgrade-insecure-requests');
    expect(policyFor('http://192.168.1.20:3000')).not.toContain('upgrade-insecure-requests');
    expect(policyFor('http://192.168.1.20:3000')).toContain("script-src 'self'");
  });
});

describe('tooManyAttempts', () => {
  /** The error and the Retry-After header of a refusal for `ms`. */
  const refusal = (ms: number) => {
    const headers = new Map<string, string>();
    const error = tooManyAttempts({ set: (name: string, value: string) => headers.set(name, value) } as unknown as Response, ms);
    return { status: error.status, message: error.message, retryAfter: headers.get('Retry-After') };
  };

  it('says when to try again in seconds under a minute and in minutes beyond, with Retry-After in seconds', () => {
    expect(refusal(1_500)).toEqual({ status: 429, message: 'Too many attempts. Please try again in 2 seconds.', retryAfter: '2' });
    expect(refusal(200)).toEqual({ status: 429, message: 'Too many attempts. Please try again in 1 second.', retryAfter: '1' });
    expect(refusal(14 * 60_000 + 1)).toEqual({ status: 429, message: 'Too many attempts. Please try again in 15 minutes.', retryAfter: '841' });
  });
});
