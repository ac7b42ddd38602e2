import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** A fetch whose answers the test releases one by one, recording each request as it is sent. */
function heldFetch() {
  const sent: string[] = [];
  const release = new Map<string, () => void>();
  const fetch = vi.fn((input: RequestInfo | URL) => {
    const url = String(input);
    sent.push(url);
    return new Promise<Response>((resolve) => release.set(url, () => resolve(new Response('{}', { status: 200 }))));
  });
  return { fetch, sent, release: (url: string) => release.get(url)!() };
}

const settle = () => new Promise((r) => setTimeout(r, 0));

describe('apiFetch', () => {
  beforeEach(() => vi.resetModules());
  afterEach(() => vi.unstubAllGlobals());

  it("sends nothing else until the page's first answer has come back (it carries the visitor's identity)", async () => {
    const server = heldFetch();
    vi.stubGlobal('fetch', server.fetch);
    const { apiJson } = await import('./api.js');
    const answers = [apiJson('/api/user/profile'), apiJson('/api/config'), apiJson('/api/uploads')];
    await settle();
    expect(server.sent).toEqual(['/api/user/profile']);
    server.release('/api/user/profile');
    await settle();
    expect(server.sent).toEqual(['/api/user/profile', '/api/config', '/api/uploads']);
    server.release('/api/config');
    server.release('/api/uploads');
    await expect(Promise.all(answers)).resolves.toEqual([{}, {}, {}]);
    // From then on a request goes out as it is made, as a click's request did before the gate.
    const later = apiJson('/api/receipts');
    expect(server.sent.at(-1)).toBe('/api/receipts');
    server.release('/api/receipts');
    await later;
  });

  it('lets the others go when the first request fails, and that failure stays its own', async () => {
    const fetch = vi.fn().mockRejectedValueOnce(new TypeError('Failed to fetch')).mockResolvedValue(new Response('[]', { status: 200 }));
    vi.stubGlobal('fetch', fetch);
    const { apiJson } = await import('./api.js');
    const first = apiJson('/api/user/profile');
    const second = apiJson('/api/uploads');
    await expect(first).rejects.toThrow('Failed to fetch');
    await expect(second).resolves.toEqual([]);
  });
});
