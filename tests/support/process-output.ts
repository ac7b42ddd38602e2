import { readdirSync, readFileSync } from 'node:fs';

/** The JSON log lines a service process (and its children) printed. */
export function logLines(output: string): Array<Record<string, unknown>> {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** Whether the process is alive (signal 0 only checks). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    // ESRCH: no such process — the answer, not a failure.
    return false;
  }
}

/**
 * The fields of a /proc/<pid>/stat or /proc/<pid>/task/<tid>/stat text, by their number in proc(5)
 * (ppid is 4). The command name (field 2) may hold spaces and parentheses, so fields are counted
 * from after its closing parenthesis.
 */
export function procStatFields(text: string): (n: number) => number {
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return (n) => Number(fields[n - 3]);
}

/** The processes `matches` picks, by pid, from /proc (a read failing means the process just ended: not picked). */
function processesWhere(matches: (pid: string) => boolean): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (matches(entry)) found.push(Number(entry));
    } catch {
      // Gone between the listing and the read.
    }
  }
  return found.sort((a, b) => a - b);
}

/** The service processes (server/dist/main.js) whose parent is `pid`. */
export function serviceChildrenOf(pid: number): number[] {
  return processesWhere((entry) => {
    const parent = procStatFields(readFileSync(`/proc/${entry}/stat`, 'utf8'))(4);
    return parent === pid && readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('server/dist/main.js');
  });
}

/** The processes whose command name is `name` (`postgres`, `redis-server`). */
export function processesNamed(name: string): number[] {
  return processesWhere((entry) => readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === name);
}
