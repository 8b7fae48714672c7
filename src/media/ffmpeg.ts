import { readStreamText } from '../lib/read-stream';

export type Tools = { ffmpegPath: string; ffprobePath: string };

export type RunResult = {
  exitCode: number;
  stdout: Uint8Array;
  stderr: string;
  /** CPU seconds the tool used (user + system), for the benchmarks. */
  cpuSeconds: number;
};

/** Runs a tool to completion, keeping stdout as bytes and the tail of stderr as text. */
export async function runTool(
  command: string[],
  options: { stdin?: Uint8Array; nice?: number; signal?: AbortSignal; env?: Record<string, string> } = {},
): Promise<RunResult> {
  const argv = options.nice ? ['nice', '-n', String(options.nice), ...command] : command;
  const child = Bun.spawn(argv, {
    stdin: options.stdin ?? 'ignore',
    stdout: 'pipe',
    stderr: 'pipe',
    signal: options.signal,
    // Added to the inherited environment (a thread limit for Tesseract).
    ...(options.env ? { env: { ...process.env, ...options.env } } : {}),
  });
  let stderr = '';
  const [stdout] = await Promise.all([
    new Response(child.stdout).bytes(),
    readStreamText(child.stderr, (text) => {
      stderr = (stderr + text).slice(-8000);
    }),
  ]);
  const exitCode = await child.exited;
  const used = child.resourceUsage();
  const cpuSeconds = used ? Number(used.cpuTime.user + used.cpuTime.system) / 1e6 : 0;
  return { exitCode, stdout, stderr, cpuSeconds };
}

export type ProbeStream = {
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  duration?: string;
  start_time?: string;
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

/** Says what is wrong with the configured ffmpeg (missing, or older than 5.1), or undefined when it is fine. */
export function checkFfmpeg(tools: Tools): string | undefined {
  for (const tool of [tools.ffmpegPath, tools.ffprobePath]) {
    let output: string;
    try {
      const result = Bun.spawnSync([tool, '-version'], { stdout: 'pipe', stderr: 'pipe' });
      if (result.exitCode !== 0) return `${tool} does not run.`;
      output = result.stdout.toString();
    } catch {
      return `${tool} was not found. Install ffmpeg 5.1 or newer, or set FFMPEG_PATH and FFPROBE_PATH.`;
    }
    const version = /version n?(\d+)\.(\d+)/.exec(output);
    if (version && (Number(version[1]) < 5 || (Number(version[1]) === 5 && Number(version[2]) < 1))) {
      return `${tool} is version ${version[1]}.${version[2]}; 5.1 or newer is needed.`;
    }
  }
  return undefined;
}
