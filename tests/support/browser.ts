import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { repoRoot } from './service-process.js';

export const CHROMIUM = '/usr/bin/chromium';
export const artifactsDir = path.join(repoRoot, 'test-artifacts', 'web');

/** Debian's Chromium, headless (never a downloaded browser build). */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium`);
  await mkdir(artifactsDir, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}

export function screenshotPath(name: string): string {
  return path.join(artifactsDir, `${name}.png`);
}

/** The first characters of the session id a cookie header carries, enough to tell sessions apart. */
const sessionOf = (header?: string | null) => (header ? (/rsid=s%3A([^.;]{6})/.exec(header)?.[1] ?? 'other') : '-');

/**
 * What a page asked the api and which session each request and answer carried, kept to print when
 * a test fails: a page that loses its sign-in shows here which answer set which session cookie.
 */
export function traceSessions(page: Page, baseUrl: string): { lines: string[] } {
  const started = Date.now();
  const lines: string[] = [];
  const at = () => `${String(Date.now() - started).padStart(6)} ms`;
  const api = (url: string) => /\/api\/|\/socket\.io\//.test(url);
  const where = (url: string) => url.replace(baseUrl, '').slice(0, 80);
  // A page closed while a header was still being read has nothing more to say: the trace just ends.
  page.on('request', (r) => {
    if (api(r.url())) void r.allHeaders().then((h) => lines.push(`${at()} → ${r.method()} ${where(r.url())} session=${sessionOf(h.cookie)}`), () => undefined);
  });
  page.on('response', (r) => {
    if (api(r.url())) void r.allHeaders().then((h) => lines.push(`${at()} ← ${r.status()} ${where(r.url())} set-cookie=${sessionOf(h['set-cookie'])}`), () => undefined);
  });
  page.on('websocket', (ws) => lines.push(`${at()} websocket ${where(ws.url())}`));
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) lines.push(`${at()} page ${where(frame.url())}`);
  });
  return { lines };
}
