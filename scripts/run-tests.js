// Runs every test (vitest) and closes with one plain summary line CI can read.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';

mkdirSync('.data', { recursive: true });
const report = '.data/test-results.json';
const run = spawnSync(
  'npx',
  ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...process.argv.slice(2)],
  { stdio: 'inherit' },
);
try {
  const results = JSON.parse(readFileSync(report, 'utf8'));
  const skipped = results.numPendingTests + results.numTodoTests;
  // A file whose hook failed fails with none of its tests counted as failed: count it once.
  const brokenFiles = results.testResults.filter((f) => f.status === 'failed' && !f.assertionResults.some((a) => a.status === 'failed')).length;
  console.log(`\ntests: ${results.numPassedTests} passed, ${results.numFailedTests + brokenFiles} failed, ${skipped} skipped`);
  if (results.numTotalTests === 0) process.exit(1);
} catch {
  console.log('\ntests: 0 passed, 1 failed (the runner produced no report)');
  process.exit(1);
}
process.exit(run.status ?? 1);
