/**
 * A thread beside the server's event loop (started by stall-probe.ts): when the loop's heartbeat is more than
 * 40 ms old, it samples what the loop's thread is doing from /proc: its scheduler state (R running or waiting for a
 * CPU, S sleeping, D in disk I/O), the system call it is in, and its CPU and run-queue wait so far.
 */
import { readFileSync, writeSync } from 'node:fs';

declare const self: { onmessage: (event: MessageEvent) => void };
const read = (path: string) => {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return '?';
  }
};
self.onmessage = ({ data }: MessageEvent) => {
  const { beat, pid } = data as { beat: Int32Array; pid: number };
  const task = `/proc/${pid}/task/${pid}`;
  let samples: string[] = [];
  let stale = false;
  setInterval(() => {
    const age = (Date.now() & 0x7fffffff) - Atomics.load(beat, 0);
    if (age > 40) {
      stale = true;
      const state = read(`${task}/stat`).split(') ')[1]?.split(' ')[0];
      const syscall = read(`${task}/syscall`).split(' ')[0];
      const [cpuNs, waitNs] = read(`${task}/schedstat`).split(' ');
      samples.push(
        `${age}ms:${state}:sys${syscall}:cpu${Math.round(Number(cpuNs) / 1e6)}:wait${Math.round(Number(waitNs) / 1e6)}`,
      );
    } else if (stale) {
      writeSync(2, `[probe] ${JSON.stringify({ at: Date.now(), kind: 'watch', samples })}\n`);
      samples = [];
      stale = false;
    }
  }, 10);
};
