import { processingFailedMessage } from '@receipts/common';
import { ABORT_REASONS } from '@receipts/infra';
import { describe, expect, it } from 'vitest';
import { EngineError } from '../ocr/ocr-engine.js';
import { UnreadableFileError } from '../page/unreadable-file.error.js';
import { failureOutcome, outcomeOfError, UNAVAILABLE_RETRY_MS } from './failure-outcome.rule.js';

const run = { attempt: 1, attempts: 3, reference: 'req-1', jobTimeoutMs: 500 };
const last = { ...run, attempt: 3 };
const crash = new Error('relation "receipts" does not exist');
const outage = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

describe('failureOutcome', () => {
  it.each([
    ['a cancel', ABORT_REASONS.cancel, { kind: 'cancelled' }],
    ['a shutdown', ABORT_REASONS.shutdown, { kind: 'handed-back' }],
    ['a lost lock', ABORT_REASONS.lockLost, { kind: 'lock-lost' }],
    ['any other abort', 'something else', { kind: 'cancelled' }],
  ])('leaves the upload as it is after %s, whatever was thrown', (_, reason, expected) => {
    expect(failureOutcome(crash, reason, last)).toEqual(expected);
    expect(failureOutcome(outage, reason, run)).toEqual(expected);
  });

  it.each([
    ['a crash before the last attempt', crash, run, { kind: 'retry', error: crash }],
    ['an engine failure another try may mend', new EngineError('The model did not answer.', false, 'timeout'), run, { kind: 'retry' }],
    ['a crash on the last attempt', crash, last, { kind: 'failed', message: processingFailedMessage('req-1'), error: crash }],
    ['a file fault, at once', new UnreadableFileError('Not a receipt we can read.'), run, { kind: 'failed', message: 'Not a receipt we can read.' }],
    ['a final engine failure, at once', new EngineError('The model refused.', true, '403'), run, { kind: 'failed', message: 'The model refused.' }],
    ['an engine failure on the last attempt', new EngineError('The model did not answer.', false, 'timeout'), last, { kind: 'failed', message: 'The model did not answer.' }],
    ['an outage, even on the last attempt', outage, last, { kind: 'wait-for-services', delayMs: UNAVAILABLE_RETRY_MS, error: outage }],
  ])('judges %s', (_, caught, attempt, expected) => {
    expect(failureOutcome(caught, undefined, attempt)).toMatchObject(expected);
  });

  it('takes a run past its time for a failed attempt that says so, with the step it was in as its cause', () => {
    const outcome = failureOutcome(crash, ABORT_REASONS.timeout, run);
    expect(outcome).toMatchObject({ kind: 'retry', error: { message: `${ABORT_REASONS.timeout} (500 ms)`, cause: crash } });
    expect(failureOutcome(crash, ABORT_REASONS.timeout, last)).toMatchObject({ kind: 'failed', message: processingFailedMessage('req-1') });
  });
});

describe('outcomeOfError', () => {
  it('waits an outage out and retries anything else', () => {
    expect(outcomeOfError(outage)).toEqual({ kind: 'wait-for-services', delayMs: UNAVAILABLE_RETRY_MS, error: outage });
    expect(outcomeOfError(crash)).toEqual({ kind: 'retry', error: crash });
  });
});
