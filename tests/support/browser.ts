import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
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
