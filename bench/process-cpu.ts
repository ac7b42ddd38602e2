// CPU time of this process and every process it started (decoder processes, native tesseract),
// read from /proc: process.cpuUsage() sees only this process's own threads.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { procStatFields } from '#test-support/harness';

const TICKS_PER_SECOND = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout?.trim()) || 100;

/**
 * ppid, and utime, stime, cutime, cstime, of /proc/<pid>/stat, or of one thread's
 * /proc/<pid>/task/<tid>/stat.
 */
function statOf(pid: number | 'self', tid?: number): { ppid: number; own: number; reaped: number } | null {
  let text: string;
  try {
    text = readFileSync(tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // ppid is field 4, utime..cstime fields 14..17.
  const n = procStatFields(text);
  return { ppid: n(4), own: n(14) + n(15), reaped: n(16) + n(17) };
}

/**
 * CPU-seconds used so far by this process, the children it has reaped, and the children alive
 * now (and what they reaped). Differences of two readings are exact whether a child ended in
 * between or not. Linux only; elsewhere this process alone.
 */
export function processTreeCpuSeconds(): number {
  if (!statOf('self')) {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1e6;
  }
  return treeCpuSecondsOf(process.pid);
}

/** The same for another process (a worker with its decoder and tesseract processes); 0 for one that is gone. */
export function treeCpuSecondsOf(pid: number): number {
  const root = statOf(pid);
  if (!root) return 0;
  let ticks = root.own + root.reaped;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const child = statOf(Number(entry));
    if (child?.ppid === pid) ticks += child.own + child.reaped;
  }
  return ticks / TICKS_PER_SECOND;
}

/** A process's parent, or 0 for one that is gone. */
export function parentOf(pid: number): number {
  return statOf(pid)?.ppid ?? 0;
}

/** CPU-seconds of the children this process has waited for (a program run with spawnSync, say), and nothing else. */
export function reapedCpuSeconds(): number {
  const self = statOf('self');
  if (!self) throw new Error('no CPU figures for reaped children: /proc is not there');
  return self.reaped / TICKS_PER_SECOND;
}

/** CPU-seconds another process has used so far: all its threads, and its main thread (a Node process's event loop). */
export function cpuSecondsOf(pid: number): { all: number; main: number } {
  const all = statOf(pid);
  const main = statOf(pid, pid);
  if (!all || !main) throw new Error(`no CPU figures for process ${pid}`);
  return { all: all.own / TICKS_PER_SECOND, main: main.own / TICKS_PER_SECOND };
}

/** Nanoseconds on a CPU and waiting for one (/proc/<pid>/task/<tid>/schedstat), of every thread and of the main thread (a Node process's event loop). */
export interface SchedTimes {
  run: number;
  wait: number;
  mainRun: number;
  mainWait: number;
}

const NO_TIMES: SchedTimes = { run: 0, wait: 0, mainRun: 0, mainWait: 0 };

/** A process's SchedTimes; all zero for one that is gone (it ended between the listing and the read). */
export function schedTimesOf(pid: number): SchedTimes {
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return NO_TIMES;
  }
  const times = { ...NO_TIMES };
  for (const tid of tids) {
    let run: number;
    let wait: number;
    try {
      [run, wait] = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ').map(Number) as [number, number];
    } catch {
      continue; // a thread that ended meanwhile
    }
    times.run += run;
    times.wait += wait;
    if (Number(tid) === pid) {
      times.mainRun = run;
      times.mainWait = wait;
    }
  }
  return times;
}
