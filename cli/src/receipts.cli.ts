#!/usr/bin/env node
import { createRequire } from 'node:module';
import { apiClient, ApiError, ApiUnreachableError } from './api-client.js';
import { commandHelp, mainHelp, parseCommand, UsageError, type Command } from './cli-args.js';
import { ConfigFileError, NotLoggedInError, resolveCredentials } from './cli-config.js';
import { say, type CliIo } from './cli-io.js';
import { exportReceipts } from './commands/export.command.js';
import { login } from './commands/login.command.js';
import { logout } from './commands/logout.command.js';
import { status } from './commands/status.command.js';
import { upload } from './commands/upload.command.js';
import { MissingPathError } from './receipt-files.js';

const { version } = createRequire(import.meta.url)('../package.json') as { version: string };

async function runCommand(command: Command, io: CliIo): Promise<number> {
  switch (command.name) {
    case 'help':
      say(io.stdout, command.topic ? commandHelp(command.topic) : mainHelp());
      return 0;
    case 'version':
      say(io.stdout, version);
      return 0;
    case 'login':
      return login(command, io, version);
    case 'logout':
      return logout(io);
  }
  const credentials = await resolveCredentials(io.env);
  const client = apiClient(credentials, version);
  switch (command.name) {
    case 'upload':
      return upload(command, io, client);
    case 'export':
      return exportReceipts(command, io, client);
    case 'status':
      return status(io, client, credentials.url);
  }
}

/** Runs the command line; its exit code: 0 done, 1 failed (the api's refusal, a file not read), 2 a command line that cannot run. */
export async function run(argv: readonly string[], io: CliIo): Promise<number> {
  try {
    return await runCommand(parseCommand(argv), io);
  } catch (err) {
    if (err instanceof UsageError) {
      say(io.stderr, `error: ${err.message}\n\n${err.topic ? commandHelp(err.topic) : mainHelp()}`);
      return 2;
    }
    if (err instanceof ApiError) {
      say(io.stderr, `error: ${err.message}${err.code ? ` (${err.code})` : ''}`);
      return 1;
    }
    if (err instanceof ApiUnreachableError || err instanceof NotLoggedInError || err instanceof ConfigFileError || err instanceof MissingPathError) {
      say(io.stderr, `error: ${err.message}`);
      return 1;
    }
    say(io.stderr, `error: ${(err as Error)?.stack ?? String(err)}`);
    return 1;
  }
}

process.exitCode = await run(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env });
