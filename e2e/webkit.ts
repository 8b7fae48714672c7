import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { screenshotDir } from './server';

/**
 * Debian's WebKitGTK (the engine of every iPhone browser) driven over W3C WebDriver with plain fetch: one
 * `xvfb-run -a WebKitWebDriver` per test file, in its own process group so that closing (or the test process
 * ending) kills Xvfb, the driver, MiniBrowser and its web processes together. Every call has a timeout, so a
 * stuck engine fails a test instead of hanging CI.
 */
export const WEBKIT_DRIVER_PATH = process.env.WEBKIT_DRIVER_PATH ?? '/usr/bin/WebKitWebDriver';

/** The three paths the player takes on Apple's engine. */
export type WebKitMode =
  /** hls.js over MediaSource: desktop Safari, iPad. */
  | 'mse'
  /** hls.js over ManagedMediaSource: iPhone since iOS 17.1 (MediaSource removed from the page). */
  | 'mms'
  /** The engine's own HLS: older iPhones (neither MediaSource exists; GStreamer's HLS is enabled). */
  | 'native';

const CALL_TIMEOUT_MS = 30_000;

/**
 * The media rules of Apple's engine on a phone, turned on in every mode (only `--features=` flags reach an
 * automation session): sound needs a gesture (muted autoplay is allowed), inline playback needs `playsinline`
 * (else the first Play goes to the system's full screen), picture in picture is offered.
 */
export const IPHONE_FEATURES = [
  '+RequiresUserGestureForAudioPlayback',
  '+InlineMediaPlaybackRequiresPlaysInlineAttribute',
  '+AllowsPictureInPictureMediaPlayback',
];

export type WebKitElement = { 'element-6066-11e4-a52e-4f735466cecf': string };

export type WebKit = {
  mode: WebKitMode;
  navigate(url: string): Promise<void>;
  url(): Promise<string>;
  /**
   * Whether the page still answers a script within a few seconds. The session's own calls (its address) are
   * answered by the browser, not the page, so they pass while a stuck web process holds the page.
   */
  responsive(): Promise<boolean>;
  /** What the session is busy with: the WebDriver call under way and what the last waitFor waits for. */
  busyWith(): string;
  /** Runs a function in the page (serialised: it sees nothing of the test's scope) and answers its result. */
  run<T>(fn: (...args: never[]) => T | Promise<T>, ...args: unknown[]): Promise<Awaited<T>>;
  /** Polls `fn` in the page until it answers truthy, or fails with `what` after `timeoutMs`. */
  waitFor<T>(what: string, fn: (...args: never[]) => T, args?: unknown[], timeoutMs?: number): Promise<T>;
  find(css: string): Promise<WebKitElement>;
  /** Runs the next calls in the page's `index`th frame (an LMS's iframe), or back in the top page with null. */
  frame(index: number | null): Promise<void>;
  /** Sets the window's size (MiniBrowser goes no narrower than 447 px) and answers the page's width. */
  resize(width: number, height: number): Promise<number>;
  click(element: WebKitElement): Promise<void>;
  type(element: WebKitElement, text: string): Promise<void>;
  screenshot(name: string): Promise<string>;
  /** A PNG of one element, as the engine drew it. */
  elementScreenshot(element: WebKitElement): Promise<Uint8Array>;
  /** axe-core's critical and serious findings on the page as it is. */
  seriousA11yFindings(): Promise<{ id: string; impact: string; where: string[] }[]>;
  /** CPU seconds used so far by the browser's processes (MiniBrowser, its web, network and GPU processes). */
  cpuSeconds(): number;
  close(): Promise<void>;
};

async function freePort(): Promise<number> {
  const server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response() });
  const port = server.port as number;
  server.stop(true);
  return port;
}

const running = new Set<ChildProcess>();
const killGroup = (child: ChildProcess) => {
  try {
    if (child.pid) process.kill(-child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
  running.delete(child);
};
process.on('exit', () => {
  for (const child of running) killGroup(child);
});

/**
 * Starts the driver (under its own Xvfb) and a session. `mode` decides what the page is given: `mms` and `native`
 * remove MediaSource before the app's code runs (see hideMediaSource), `native` also turns on GStreamer's HLS.
 */
export async function launchWebKit(mode: WebKitMode = 'mse'): Promise<WebKit> {
  const port = await freePort();
  const child = spawn(
    'xvfb-run',
    ['-a', '-s', '-screen 0 1280x1024x24 -nolisten tcp', WEBKIT_DRIVER_PATH, `--port=${port}`],
    {
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      // Software GL: under Xvfb the GPU path draws nothing, and screenshots come out black.
      env: {
        ...process.env,
        LIBGL_ALWAYS_SOFTWARE: '1',
        ...(mode === 'native' ? { WEBKIT_GST_ENABLE_HLS_SUPPORT: '1' } : {}),
      },
    },
  );
  running.add(child);
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const base = `http://127.0.0.1:${port}`;
  const pending = new Set<string>();
  let waitingFor = '';
  const call = async (method: string, path: string, body?: unknown, timeoutMs = CALL_TIMEOUT_MS) => {
    const named = `${method} ${path.replace(/^\/session\/[^/]+/, '')} since ${new Date().toISOString().slice(11, 19)}`;
    pending.add(named);
    const response = await fetch(`${base}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    }).finally(() => pending.delete(named));
    const json = (await response.json()) as { value: unknown };
    const value = json.value as { error?: string; message?: string } | null;
    if (!response.ok || (value && typeof value === 'object' && 'error' in value && value.error)) {
      throw new Error(`WebDriver ${method} ${path}: ${value?.error} ${value?.message ?? ''}`);
    }
    return json.value;
  };
  try {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const ready = await call('GET', '/status', undefined, 2000).catch(() => null);
      if ((ready as { ready?: boolean } | null)?.ready) break;
      if (child.exitCode !== null || Date.now() > deadline)
        throw new Error(`WebKitWebDriver did not start:\n${output}`);
      await Bun.sleep(100);
    }
    const created = (await call('POST', '/session', {
      capabilities: {
        alwaysMatch: {
          // Without --automation the browser never answers and the session never starts.
          'webkitgtk:browserOptions': { args: ['--automation', `--features=${IPHONE_FEATURES.join(',')}`] },
          timeouts: { script: CALL_TIMEOUT_MS, pageLoad: CALL_TIMEOUT_MS, implicit: 0 },
        },
      },
    })) as { sessionId: string };
    const session = `/session/${created.sessionId}`;
    // A laptop's width in every mode. (At MiniBrowser's narrowest, 447 px, native HLS stalled on the slides
    // lecture in 2 of 4 runs: docs/iphone.md.)
    await call('POST', `${session}/window/rect`, { width: 1280, height: 900 }).catch(() => {});

    const run = async <T>(fn: (...args: never[]) => T | Promise<T>, ...args: unknown[]): Promise<Awaited<T>> => {
      // Async WebDriver scripts end through the callback WebDriver passes last; a thrown error comes back in words.
      const script = `const done = arguments[arguments.length - 1];
        Promise.resolve().then(() => (${fn.toString()}).apply(null, Array.from(arguments).slice(0, -1)))
          .then((value) => done({ value: value === undefined ? null : value }), (error) => done({ error: String(error && error.stack || error) }));`;
      const answer = (await call('POST', `${session}/execute/async`, { script, args })) as {
        value?: unknown;
        error?: string;
      };
      if (answer?.error) throw new Error(`in WebKit: ${answer.error}`);
      return answer?.value as Awaited<T>;
    };
    const browser: WebKit = {
      mode,
      async navigate(url) {
        await call('POST', `${session}/url`, { url });
        if (mode !== 'mse') await run(hideMediaSource, mode);
      },
      async url() {
        return (await call('GET', `${session}/url`)) as string;
      },
      busyWith() {
        return `calls under way: ${[...pending].join(', ') || 'none'}; the last wait: ${waitingFor || 'none'}`;
      },
      async responsive() {
        const answer = await call('POST', `${session}/execute/sync`, { script: 'return 1', args: [] }, 5000).catch(
          () => null,
        );
        return answer === 1;
      },
      run,
      async resize(width, height) {
        await call('POST', `${session}/window/rect`, { width, height }).catch(() => {});
        return run(() => window.innerWidth);
      },
      async waitFor(what, fn, args = [], timeoutMs = 20_000) {
        const deadline = Date.now() + timeoutMs;
        waitingFor = what;
        for (;;) {
          const value = await run(fn, ...args);
          if (value) return value;
          if (Date.now() > deadline) throw new Error(`WebKit (${mode}): timed out waiting for ${what}`);
          await Bun.sleep(150);
        }
      },
      async find(css) {
        const deadline = Date.now() + 25_000;
        for (;;) {
          try {
            return (await call('POST', `${session}/element`, { using: 'css selector', value: css })) as WebKitElement;
          } catch (error) {
            if (Date.now() > deadline) throw error;
            await Bun.sleep(150);
          }
        }
      },
      async frame(index) {
        await call('POST', `${session}/frame`, { id: index });
      },
      async click(element) {
        const id = element['element-6066-11e4-a52e-4f735466cecf'];
        await call('POST', `${session}/element/${id}/click`, {});
      },
      async type(element, text) {
        const id = element['element-6066-11e4-a52e-4f735466cecf'];
        await call('POST', `${session}/element/${id}/value`, { text });
      },
      async screenshot(name) {
        const png = (await call('GET', `${session}/screenshot`)) as string;
        mkdirSync(screenshotDir, { recursive: true });
        const file = join(screenshotDir, `${name}.png`);
        writeFileSync(file, Buffer.from(png, 'base64'));
        return file;
      },
      async elementScreenshot(element) {
        // WebKitGTK's element screenshot comes out black under Xvfb; the window's is right: cut the element from it.
        const rect = (await call('POST', `${session}/execute/sync`, {
          script:
            'const r = arguments[0].getBoundingClientRect(); return [r.x, r.y, r.width, r.height].map((n) => Math.round(n * devicePixelRatio));',
          args: [element],
        })) as number[];
        const [x = 0, y = 0, width = 1, height = 1] = rect;
        const png = new Uint8Array(Buffer.from((await call('GET', `${session}/screenshot`)) as string, 'base64'));
        const cut = Bun.spawnSync(
          [
            'ffmpeg',
            '-v',
            'error',
            '-f',
            'png_pipe',
            '-i',
            'pipe:0',
            '-vf',
            `crop=${width}:${height}:${x}:${y}`,
            '-f',
            'image2pipe',
            '-c:v',
            'png',
            'pipe:1',
          ],
          { stdin: png },
        );
        if (cut.exitCode !== 0) throw new Error(`cutting the element out: ${cut.stderr.toString()}`);
        return new Uint8Array(cut.stdout);
      },
      async seriousA11yFindings() {
        // Injected through WebDriver (not a <script>), which the app's Content-Security-Policy does not govern.
        await call('POST', `${session}/execute/sync`, { script: axeSource, args: [] });
        return run(async () => {
          const axe = (window as unknown as { axe: { run: (context: Document) => Promise<unknown> } }).axe;
          const results = (await axe.run(document)) as {
            violations: { id: string; impact: string | null; nodes: { target: string[] }[] }[];
          };
          return results.violations
            .filter((violation) => violation.impact === 'critical' || violation.impact === 'serious')
            .map((violation) => ({
              id: violation.id,
              impact: violation.impact as string,
              where: violation.nodes.slice(0, 3).map((node) => node.target.join(' ')),
            }));
        });
      },
      cpuSeconds() {
        let ticks = 0;
        for (const entry of readdirSync('/proc')) {
          if (!/^\d+$/.test(entry)) continue;
          try {
            const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
            const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
            const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
            // fields[2] is the process group; [11] and [12] are user and system time in clock ticks.
            if (Number(fields[2]) !== child.pid || !/^(MiniBrowser|WebKit)/.test(name)) continue;
            if (name.startsWith('WebKitWebDriver')) continue;
            ticks += Number(fields[11]) + Number(fields[12]);
          } catch {
            // the process ended as we looked
          }
        }
        return ticks / 100;
      },
      async close() {
        await call('DELETE', session, undefined, 5000).catch(() => {});
        killGroup(child);
      },
    };
    return browser;
  } catch (error) {
    killGroup(child);
    throw error;
  }
}

const axeSource = await Bun.file(require.resolve('axe-core/axe.min.js')).text();

/**
 * An iPhone's page: without MediaSource (hls.js then uses ManagedMediaSource, as on iOS 17.1 and later), and in
 * `native` mode without ManagedMediaSource either, so hls.js says it is unsupported and the player hands the
 * playlist to the engine's own HLS. Run after each navigation, before the app opens a lecture: the app's
 * hls.js is loaded, but it looks for MediaSource only when a player is built.
 */
export function hideMediaSource(mode: WebKitMode) {
  const scope = window as unknown as Record<string, unknown>;
  delete scope.MediaSource;
  delete scope.WebKitMediaSource;
  if (mode === 'native') delete scope.ManagedMediaSource;
  // An iPhone has no full screen for other elements: only the <video> itself goes full screen.
  for (const proto of [Element.prototype, HTMLElement.prototype] as unknown as Record<string, unknown>[]) {
    delete proto.requestFullscreen;
    delete proto.webkitRequestFullscreen;
  }
  return { mediaSource: typeof scope.MediaSource, managed: typeof scope.ManagedMediaSource };
}

/**
 * How readable a control's text is in a screenshot of it (a PNG): the WCAG contrast ratio between its background
 * (the commonest luminance) and its text (the luminance farthest from it), looked for in the left 60 %
 * inside a 3 px border, so that an engine's dark arrow on a light box does not pass for text.
 */
export async function readableContrast(png: Uint8Array): Promise<number> {
  const decoded = Bun.spawnSync(
    ['ffmpeg', '-v', 'error', '-i', 'pipe:0', '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'],
    { stdin: png },
  );
  const probe = Bun.spawnSync(
    ['ffprobe', '-v', 'error', '-show_entries', 'stream=width,height', '-of', 'csv=p=0', '-i', 'pipe:0'],
    { stdin: png },
  );
  const [width = 0, height = 0] = probe.stdout.toString().trim().split(',').map(Number);
  const pixels = decoded.stdout;
  const channel = (value: number) => {
    const c = value / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const luminances: number[] = [];
  for (let y = 3; y < height - 3; y++) {
    for (let x = 3; x < Math.floor(width * 0.6); x++) {
      const i = (y * width + x) * 3;
      luminances.push(
        0.2126 * channel(pixels[i] ?? 0) + 0.7152 * channel(pixels[i + 1] ?? 0) + 0.0722 * channel(pixels[i + 2] ?? 0),
      );
    }
  }
  if (luminances.length === 0) throw new Error(`no pixels in a ${width}x${height} screenshot`);
  const buckets = new Map<number, number>();
  for (const l of luminances) buckets.set(Math.round(l * 50), (buckets.get(Math.round(l * 50)) ?? 0) + 1);
  const commonest = [...buckets.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 0;
  const background = commonest / 50;
  const text = luminances.reduce((far, l) => (Math.abs(l - background) > Math.abs(far - background) ? l : far));
  const [light, dark] = background > text ? [background, text] : [text, background];
  return Math.round(((light + 0.05) / (dark + 0.05)) * 100) / 100;
}

/** Signs in through the app's form, as a student does, and waits for the app to move on from /login. */
export async function signInThroughForm(
  browser: WebKit,
  baseUrl: string,
  account: { email: string; password: string },
) {
  await browser.navigate(`${baseUrl}/login`);
  await browser.type(await browser.find('input[name="email"]'), account.email);
  await browser.type(await browser.find('input[name="password"]'), account.password);
  await browser.click(await browser.find('button[type="submit"]'));
  await browser.waitFor('the app past /login', () => !location.pathname.startsWith('/login'));
}

/**
 * Opens `href` through the app's own link on a fresh page (the home page), where nobody has clicked yet: WebKitGTK
 * lets sound play in a page that had a gesture, an iPhone does not. The page's MediaSource goes first (navigate),
 * then the link is clicked from a timer, so no gesture reaches the player.
 */
export async function openWithoutGesture(browser: WebKit, baseUrl: string, href: string) {
  await browser.navigate(`${baseUrl}/`);
  await browser.find(`a[href="${href}"]`);
  await browser.run(
    (target: string) =>
      new Promise((resolve) =>
        setTimeout(() => {
          (document.querySelector(`a[href="${target}"]`) as HTMLAnchorElement).click();
          resolve(null);
        }, 1200),
      ),
    href,
  );
}
