/**
 * check:container — builds the image and checks it as an admin would use it: the container becomes healthy,
 * serves the app, signs up a teacher (the code read from the container's log), transcodes a clip that then
 * plays, is stopped in the middle of a second transcode, starts again and finishes that video, with the first one
 * and the account intact. Prints the image size and the timings. Uses podman through ../shared/tools when those
 * scripts are there (see ../shared/CONTAINER.md), plain `podman` otherwise.
 * Usage: bun run check:container [--keep] [--skip-build]
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeClip } from '../src/test/fixtures';
import { apiClient, signUpWith } from '../src/test/harness';

const root = join(import.meta.dir, '..');
const tools = join(root, '..', 'shared', 'tools');
const useTools = existsSync(join(tools, 'podman-build.sh'));
const tag = 'localhost/classroom:check';
const name = `classroom-check-${process.pid}`;
const volume = `${name}-data`;
const port = 18_000 + (process.pid % 1000);
const base = `http://127.0.0.1:${port}`;
const version = (await Bun.file(join(root, 'package.json')).json()).version as string;
const timings: [string, number][] = [];

function run(command: string[], options: { quiet?: boolean } = {}) {
  const result = Bun.spawnSync(command, { cwd: root, stdout: 'pipe', stderr: 'pipe' });
  const output = result.stdout.toString() + result.stderr.toString();
  if (result.exitCode !== 0)
    throw new Error(`${command.join(' ')} failed (${result.exitCode}):\n${output.slice(-3000)}`);
  if (!options.quiet) process.stdout.write(output.slice(-400));
  return result.stdout.toString().trim();
}
async function timed<T>(label: string, work: () => Promise<T> | T): Promise<T> {
  const started = performance.now();
  const value = await work();
  const seconds = (performance.now() - started) / 1000;
  timings.push([label, seconds]);
  console.log(`✓ ${label} (${seconds.toFixed(1)} s)`);
  return value;
}
async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutS = 120): Promise<T> {
  const deadline = Date.now() + timeoutS * 1000;
  while (Date.now() < deadline) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    await Bun.sleep(250);
  }
  throw new Error(`timed out after ${timeoutS} s waiting for ${what}`);
}
const ready = () =>
  until('/api/health/ready', async () => ((await fetch(`${base}/api/health/ready`)).ok ? true : undefined));
/** The container's log (the app writes JSON lines to stdout, and mail goes there when no SMTP is set). */
const logs = () => {
  const result = Bun.spawnSync(['podman', 'logs', name], { stdout: 'pipe', stderr: 'pipe' });
  return result.stdout.toString() + result.stderr.toString();
};

function startContainer() {
  const args = ['--name', name, '-v', `${volume}:/data`];
  if (useTools) return run([join(tools, 'podman-run.sh'), tag, String(port), ...args], { quiet: true });
  return run(['podman', 'run', '-d', '--init', '-p', `127.0.0.1:${port}:3000`, ...args, tag], { quiet: true });
}

const work = mkdtempSync(join(tmpdir(), 'classroom-check-container-'));
let failed = false;
try {
  if (!process.argv.includes('--skip-build')) {
    if (useTools) run([join(tools, 'podman-bases.sh')], { quiet: true });
    const source = Bun.spawnSync(['git', 'remote', 'get-url', 'origin'], { cwd: root }).stdout.toString().trim();
    const buildArgs = ['--build-arg', `VERSION=${version}`, '--build-arg', `SOURCE=${source}`];
    await timed('image built', () =>
      useTools
        ? run([join(tools, 'podman-build.sh'), '.', tag, ...buildArgs], { quiet: true })
        : run(['podman', 'build', '--format', 'docker', '-t', tag, ...buildArgs, '.'], { quiet: true }),
    );
  }
  const size = Number(run(['podman', 'image', 'inspect', '-f', '{{.Size}}', tag], { quiet: true }));
  const labels = JSON.parse(run(['podman', 'image', 'inspect', '-f', '{{json .Labels}}', tag], { quiet: true }));
  console.log(`image ${tag}: ${(size / 1e6).toFixed(0)} MB, labels ${JSON.stringify(labels)}`);
  if (labels['org.opencontainers.image.version'] !== version) throw new Error('version label missing');

  await timed('container started and ready', async () => {
    startContainer();
    await ready();
  });
  run(['podman', 'healthcheck', 'run', name], { quiet: true });
  console.log('✓ HEALTHCHECK passes');
  const login = await fetch(`${base}/login`);
  if (login.status !== 200 || !(await login.text()).includes('<div id="root">'))
    throw new Error('/login is not the app');
  const readyAnswer = await (await fetch(`${base}/api/health/ready`)).json();
  console.log(`✓ serves the app; ready answers version ${readyAnswer.version}`);

  const api = apiClient(base);
  const mailFromLog = {
    async codeFor(to: string) {
      return until(`the code mailed to ${to} in the log`, async () => {
        const line = logs()
          .split('\n')
          .filter((entry) => entry.includes(`to=${to}`))
          .at(-1);
        return line?.match(/\b(\d{6})\b/)?.[1];
      });
    },
  };
  const teacher = await timed('teacher signed up with the code from the log', () =>
    signUpWith(api, mailFromLog, 'teacher', 'Container Teacher'),
  );
  const as = teacher.token;
  const course = (await api('POST', '/api/courses', { as, body: { courseName: 'Container 101' } })).json;

  const upload = async (file: string) => {
    const form = new FormData();
    form.append('uploadedFile', Bun.file(file), 'lecture.mp4');
    const answer = await api('POST', '/api/upload', { as, body: form });
    if (answer.status !== 200 && answer.status !== 201) throw new Error(`upload failed: ${answer.text}`);
    return answer.json as { videoId: string; masterPlaylist: string };
  };
  const status = async (videoId: string) => (await api('GET', `/api/videos/${videoId}`, { as })).json?.status;
  const short = await makeClip(work, { width: 640, height: 360, seconds: 6, name: 'short.mp4' });
  const first = await upload(short);
  await timed('6 s clip transcoded in the container', () =>
    until('the first video', async () => ((await status(first.videoId)) === 'ready' ? true : undefined), 180),
  );
  await api('POST', '/api/lectures', {
    as,
    body: { courseId: course._id, nameOfTopic: 'First', videoLink: first.masterPlaylist },
  });
  const master = await fetch(`${base}${new URL(first.masterPlaylist, base).pathname}`, {
    headers: { authorization: `Bearer ${as}` },
  });
  if (!master.ok || !(await master.text()).includes('#EXT-X-STREAM-INF')) throw new Error('master playlist');
  console.log('✓ the master playlist is served');

  const long = await makeClip(work, { width: 1280, height: 720, seconds: 40, name: 'long.mp4' });
  const second = await upload(long);
  await until('the second transcode to start', async () =>
    (await status(second.videoId)) === 'processing' ? true : undefined,
  );
  await Bun.sleep(1500);
  await timed('stopped during a transcode (podman stop -t 15)', () =>
    run(['podman', 'stop', '-t', '15', name], { quiet: true }),
  );
  const exitCode = run(['podman', 'inspect', '-f', '{{.State.ExitCode}}', name], { quiet: true });
  console.log(`  exit code ${exitCode}`);
  if (exitCode !== '0' && exitCode !== '143') throw new Error(`stop ended with exit code ${exitCode}`);

  await timed('started again and ready', async () => {
    run(['podman', 'start', name], { quiet: true });
    await ready();
  });
  await timed('the interrupted video finished after the restart', () =>
    until(
      'the second video',
      async () => {
        const now = await status(second.videoId);
        if (now === 'failed') throw new Error('the interrupted video failed');
        return now === 'ready' ? true : undefined;
      },
      300,
    ),
  );
  const again = await api('POST', '/api/users/login', { body: { email: teacher.email, password: teacher.password } });
  const lectures = (await api('GET', `/api/lectures/course/${course._id}`, { as })).json as unknown[];
  if (again.status !== 200 || lectures.length !== 1 || (await status(first.videoId)) !== 'ready') {
    throw new Error('something was lost across the restart');
  }
  console.log('✓ nothing lost: the account signs in, the lecture and the first video are there');
  console.log(`\nimage: ${(size / 1e6).toFixed(0)} MB`);
  for (const [label, seconds] of timings) console.log(`  ${label}: ${seconds.toFixed(1)} s`);
} catch (error) {
  failed = true;
  console.error(`✗ ${(error as Error).message}`);
  try {
    console.error(logs().split('\n').slice(-30).join('\n'));
  } catch {
    // no container to read
  }
} finally {
  if (!process.argv.includes('--keep')) {
    Bun.spawnSync(['podman', 'rm', '-f', '-v', name], { stdout: 'ignore', stderr: 'ignore' });
    Bun.spawnSync(['podman', 'volume', 'rm', '-f', volume], { stdout: 'ignore', stderr: 'ignore' });
  }
  rmSync(work, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
