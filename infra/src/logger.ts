import { pino, type Logger } from 'pino';

export type { Logger };

/** Structured JSON logs on stdout; each process names its role. */
export function createLogger(options: { level: string; role: string }): Logger {
  return pino({ level: options.level, base: { role: options.role, pid: process.pid } });
}
