import type { ProgressStream } from './progress-bar.js';

/** What a command reads and writes besides the api: results to stdout, progress and errors to stderr. */
export interface CliIo {
  stdout: ProgressStream;
  stderr: ProgressStream;
  env: NodeJS.ProcessEnv;
}

export const say = (stream: ProgressStream, text: string) => stream.write(`${text}\n`);
