import { readStreamText } from '../read-stream';

export type Tools = { ffmpegPath: string; ffprobePath: string };

export type RunResult = { exitCode: number; stdout: Uint8Array; stderr: string };

/** Runs a tool to completion, keeping stdout as bytes and the tail of stderr as text. */
export async function runTool(
  command: string[],
  options: { stdin?: Uint8Array; nice?: number; signal?: AbortSignal } = {},
): Promise<RunResult> {
  const argv = options.nice ? ['nice', '-n', String(options.nice), ...command] : command;
  const child = Bun.spawn(argv, {
    stdin: options.stdin ?? 'ignore',
    stdout: 'pipe',
    stderr: 'pipe',
    signal: options.signal,
  });
  let stderr = '';
  const [stdout] = await Promise.all([
    new Response(child.stdout).bytes(),
    readStreamText(child.stderr, (text) => {
      stderr = (stderr + text).slice(-8000);
    }),
  ]);
  const exitCode = await child.exited;
  return { exitCode, stdout, stderr };
}

export type ProbeStream = {
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  duration?: string;
  r_frame_rate?: string;
  avg_frame_rate?: string;
  channels?: number;
  tags?: Record<string, string>;
  side_data_list?: { rotation?: number }[];
};
export type ProbeResult = { streams: ProbeStream[]; format: { duration?: string; format_name?: string } };

/** ffprobe's JSON view of a file, or undefined when it cannot read it. */
export async function probe(tools: Tools, file: string): Promise<ProbeResult | undefined> {
  const result = await runTool([
    tools.ffprobePath,
    '-v',
    'error',
    '-print_format',
    'json',
    '-show_streams',
    '-show_format',
    file,
  ]);
  if (result.exitCode !== 0) return undefined;
  try {
    const parsed = JSON.parse(new TextDecoder().decode(result.stdout)) as ProbeResult;
    return parsed.streams ? parsed : undefined;
  } catch {
    return undefined;
  }
}
