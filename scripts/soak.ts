// npm run test:soak — the browser and pipeline suites and the slot test (tests/soak.stest.ts)
// while other processes keep both cores busy. Not part of `npm test`: it is long, and it loads
// the machine on purpose.
import { spawn, spawnSync } from 'node:child_process';
import os from 'node:os';

const LOADERS = Number(process.env.SOAK_LOADERS ?? os.availableParallelism());

// Other programs on the host: busy loops at the normal priority, one per core.
const loaders = Array.from({ length: LOADERS }, () => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
const stopLoaders = () => {
  for (const loader of loaders) loader.kill('SIGKILL');
};
process.on('exit', stopLoaders);
console.log(`soak: ${LOADERS} busy processes beside the suites`);

const run = spawnSync(process.execPath, ['scripts/run-tests.js', '--project', 'integration', '--project', 'soak', 'tests/web.itest.ts', 'tests/pipeline.itest.ts', 'tests/soak.stest.ts'], {
  stdio: 'inherit',
  env: { ...process.env, SOAK: '1' },
});
stopLoaders();
process.exit(run.status ?? 1);
