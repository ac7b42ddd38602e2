import type { Request, Response } from 'express';
import { describe, expect, it } from 'vitest';
import { securityHeaders } from './security.js';

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
