import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const json = (file: string) => JSON.parse(readFileSync(path.join(root, file), 'utf8'));
const packageName = (lockPath: string) => lockPath.slice(lockPath.lastIndexOf('node_modules/') + 'node_modules/'.length);

/** Whether this process may run a command without network (a new network namespace: root on Linux). */
const canIsolate = spawnSync('unshare', ['--net', 'true']).status === 0;

/**
 * `npm ci` reaches nothing but the npm registry: every package that has an install script is
 * named in `allowScripts` (npm 11 runs only those set to true), and onnxruntime-node's script —
 * which fetches CUDA libraries from outside the registry — does nothing under the project's .npmrc
 * (npm 10 runs install scripts regardless of allowScripts).
 */
describe('installing offline', () => {
  it('names every package with an install script in allowScripts, and only trusts esbuild', () => {
    const allow = json('package.json').allowScripts as Record<string, boolean>;
    const withScripts = Object.entries(json('package-lock.json').packages as Record<string, { hasInstallScript?: boolean }>)
      .filter(([, p]) => p.hasInstallScript)
      .map(([k]) => packageName(k));
    expect(withScripts.length).toBeGreaterThan(0);
    for (const name of withScripts) expect(allow, `${name} has an install script`).toHaveProperty(name);
    expect(Object.entries(allow).filter(([, run]) => run).map(([name]) => name)).toEqual(['esbuild']);
  });

  it('skips onnxruntime-node\'s download under the project .npmrc', () => {
    expect(readFileSync(path.join(root, '.npmrc'), 'utf8')).toMatch(/^onnxruntime-node-install=skip$/m);
  });

  it.skipIf(!canIsolate)('runs onnxruntime-node\'s install script to completion with no network at all', () => {
    const script = path.join(root, 'node_modules/onnxruntime-node/script/install.js');
    const env = { ...process.env, npm_config_onnxruntime_node_install: 'skip' };
    // As npm runs it: in the package folder, with .npmrc's setting in the environment.
    const run = () => execFileSync('unshare', ['--net', process.execPath, script], { cwd: path.dirname(path.dirname(script)), env, stdio: 'pipe' });
    expect(run).not.toThrow();
    // Without the setting the script does try to download, and fails without a network.
    const unguarded = spawnSync('unshare', ['--net', process.execPath, script], {
      cwd: path.dirname(path.dirname(script)),
      // Nothing of the npm run this test may be under (npm's own variables would make it a "local install").
      env: Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_|onnxruntime_node_install/i.test(k))),
      stdio: 'pipe',
      timeout: 60_000,
    });
    expect(unguarded.status).not.toBe(0);
    expect(unguarded.stderr.toString()).toMatch(/getaddrinfo|ENOTFOUND|EAI_AGAIN|ENETUNREACH/);
  });
});
