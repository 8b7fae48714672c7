import { expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tools } from '../test/fixtures';
import { SLIDE_FONT } from '../test/slides-clip';
import { runTool } from './ffmpeg';
import { checkTesseract, cleanOcrText, readSlideText } from './ocr';
import {
  createMarkPicker,
  DETECT_HEIGHT,
  DETECT_WIDTH,
  MAX_MARKS,
  type Mark,
  MIN_GAP_SECONDS,
  SAMPLES_PER_SECOND,
  spaceMarks,
} from './slides';
import { parseRungPlaylist } from './slides-job';

const SIZE = DETECT_WIDTH * DETECT_HEIGHT;
const STEP = 1 / SAMPLES_PER_SECOND;

/** A plain picture of one grey level with `lines` dark text bars (each 4% of the picture). */
function picture(level: number, lines = 0): Uint8Array {
  const pixels = new Uint8Array(SIZE).fill(level);
  for (let line = 0; line < lines; line++) {
    const top = 10 + line * 8;
    for (let y = top; y < top + 4; y++) pixels.fill(20, y * DETECT_WIDTH + 20, y * DETECT_WIDTH + 20 + 144);
  }
  return pixels;
}

/** Feeds `seconds` of samples, each from `frame(t)`, and answers the picker's result. */
function run(seconds: number, frame: (t: number) => Uint8Array) {
  const picker = createMarkPicker();
  for (let i = 0; i * STEP < seconds; i++) picker.push(i * STEP, frame(i * STEP));
  return picker.finish();
}

test('cuts between still slides give one mark each, at the cut, with the frame once settled', () => {
  const levels = [200, 120, 60, 160];
  const result = run(40, (t) => picture(levels[Math.min(3, Math.floor(t / 10))] as number));
  expect(result.slides).toBe(true);
  expect(result.marks.map((mark) => mark.seconds)).toEqual([0, 10, 20, 30]);
  for (const mark of result.marks) {
    expect(mark.frameSeconds).toBeGreaterThan(mark.seconds);
    expect(mark.frameSeconds - mark.seconds).toBeLessThanOrEqual(1);
  }
});

test('a fade gives one mark at its start, and the frame after it settled', () => {
  // 200 → 40 over two seconds from t = 10 (each quarter second a step of 20 grey levels).
  const result = run(25, (t) => {
    if (t < 10) return picture(200);
    if (t >= 12) return picture(40);
    return picture(Math.round(200 - ((t - 10) / 2) * 160));
  });
  expect(result.marks.length).toBe(2);
  expect(Math.abs((result.marks[1]?.seconds ?? 0) - 10)).toBeLessThanOrEqual(0.5);
  expect(result.marks[1]?.frameSeconds).toBeGreaterThanOrEqual(12);
});

test('a build-up (a line a second) gives one mark, its frame once the last line is in', () => {
  const result = run(30, (t) => {
    if (t < 10) return picture(200);
    return picture(100, Math.min(3, Math.floor(t - 10)));
  });
  expect(result.marks.map((mark) => mark.seconds)).toEqual([0, 10]);
  expect(result.marks[1]?.frameSeconds).toBeGreaterThanOrEqual(13);
});

test('a small change (a pointer) and a blink back to the same slide give no mark', () => {
  const result = run(30, (t) => {
    if (t >= 20) return picture(90);
    const pixels = picture(180, 2);
    // A pointer of 6 pixels moving about, and one frame of something else at 12 s.
    const at = Math.floor(t * 7) % (SIZE - 10);
    pixels.fill(0, at, at + 6);
    return Math.abs(t - 12) < 0.01 ? picture(30) : pixels;
  });
  expect(result.marks.map((mark) => mark.seconds)).toEqual([0, 20]);
});

test('a camera lecture (every sample moving) has no index', () => {
  let seed = 7;
  const noise = () => {
    const pixels = new Uint8Array(SIZE);
    for (let i = 0; i < SIZE; i++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      pixels[i] = seed & 0xff;
    }
    return pixels;
  };
  const result = run(30, noise);
  expect(result.slides).toBe(false);
  expect(result.marks).toEqual([]);
  expect(result.stillShare).toBeLessThan(0.1);
});

test('marks closer than the minimum gap are one; the cap keeps the biggest changes in time order', () => {
  const near: Mark[] = [
    { seconds: 0, frameSeconds: 0.5, change: 1 },
    { seconds: 3, frameSeconds: 3.5, change: 0.2 },
    { seconds: 3 + MIN_GAP_SECONDS, frameSeconds: 8.5, change: 0.3 },
  ];
  expect(spaceMarks(near)).toEqual([
    { seconds: 0, frameSeconds: 3.5, change: 1 },
    { seconds: 3 + MIN_GAP_SECONDS, frameSeconds: 8.5, change: 0.3 },
  ]);

  const many: Mark[] = Array.from({ length: MAX_MARKS + 50 }, (_, i) => ({
    seconds: i * MIN_GAP_SECONDS,
    frameSeconds: i * MIN_GAP_SECONDS + 1,
    // Every seventh change is small: those go first.
    change: i % 7 === 3 ? 0.02 : 0.5,
  }));
  const capped = spaceMarks(many);
  expect(capped.length).toBe(MAX_MARKS);
  expect(capped[0]?.seconds).toBe(0);
  expect(capped.every((mark, i) => i === 0 || mark.seconds - (capped[i - 1] as Mark).seconds >= MIN_GAP_SECONDS)).toBe(
    true,
  );
  expect(capped.filter((mark) => mark.change === 0.02).length).toBe(0);
});

test('a rung playlist gives its init file and segments with their start times; a foreign name is refused', () => {
  const playlist = [
    '#EXTM3U',
    '#EXT-X-MAP:URI="init_0.mp4"',
    '#EXTINF:4.000000,',
    'seg_00000.m4s',
    '#EXTINF:3.500000,',
    'seg_00001.m4s',
    '#EXT-X-ENDLIST',
  ].join('\n');
  expect(parseRungPlaylist(playlist)).toEqual({
    init: 'init_0.mp4',
    segments: [
      { name: 'seg_00000.m4s', start: 0, duration: 4 },
      { name: 'seg_00001.m4s', start: 4, duration: 3.5 },
    ],
  });
  expect(parseRungPlaylist(playlist.replace('seg_00001.m4s', '../../uploads/x.source'))).toBeUndefined();
});

test('Tesseract reads the words of a slide picture; a missing Tesseract or language is said, not thrown', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'classroom-ocr-'));
  try {
    const image = join(dir, 'slide.png');
    const drawn = await runTool([
      tools.ffmpegPath,
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      'color=c=lightyellow:s=1280x720',
      '-frames:v',
      '1',
      '-vf',
      `drawtext=fontfile=${SLIDE_FONT}:text='Osmosis and diffusion':fontsize=72:x=100:y=200`,
      image,
    ]);
    expect(drawn.exitCode).toBe(0);
    const ocr = { tesseractPath: 'tesseract', ocrLanguages: 'eng' };
    expect(checkTesseract(ocr)).toBeUndefined();
    expect((await readSlideText(ocr, image)).text.toLowerCase()).toContain('osmosis and diffusion');

    expect(checkTesseract({ tesseractPath: join(dir, 'no-tesseract'), ocrLanguages: 'eng' })).toContain('not found');
    expect(checkTesseract({ tesseractPath: 'tesseract', ocrLanguages: 'eng+zzz' })).toContain('zzz');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('read text keeps lines with words, folds whitespace and is capped', () => {
  expect(cleanOcrText('  Cell   biology \n | ~ \n\n 2 x\nDNA  and RNA\n')).toBe('Cell biology\nDNA and RNA');
  expect(cleanOcrText('word '.repeat(1000)).length).toBe(2000);
});
