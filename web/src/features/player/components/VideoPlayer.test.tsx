import { afterEach, beforeEach, expect, test } from 'bun:test';
import { type PlayerMark, playerClockAtom, playerMarksAtom } from '@lib/playback';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createStore, Provider } from 'jotai';
import { menuPlacement } from './PlayerMenus';
import { VideoPlayer } from './VideoPlayer';

/*
 * happy-dom has no media pipeline: its <video> keeps `paused`, `currentTime` and `muted` and fires play/pause, but
 * loads nothing, has no duration, no layout and no volumechange. Where the player needs one of those the tests
 * give it a stand-in, said where it is done; real playback (hls.js, native HLS, captions drawn by the engine, full
 * screen) is checked by e2e/player.test.ts, e2e/watching.test.ts and e2e/webkit.test.ts in real browsers.
 */
const LECTURE_SECONDS = 120;
const captions = [
  { id: 'c-en', language: 'en', label: 'English', url: '/captions/en.vtt' },
  { id: 'c-fr', language: 'fr', label: 'Français', url: '/captions/fr.vtt' },
];
const chapter = (seconds: number, label: string): PlayerMark => ({ seconds, label, kind: 'chapter' });
const slide = (seconds: number): PlayerMark => ({ seconds, label: `Slide at ${seconds}`, kind: 'slide' });

const realCanPlayType = HTMLMediaElement.prototype.canPlayType;
const realResizeObserver = globalThis.ResizeObserver;
const realRect = HTMLElement.prototype.getBoundingClientRect;
/** The player's width as a stand-in layout reports it (happy-dom lays nothing out). */
let playerWidth = 1000;

beforeEach(() => {
  localStorage.clear();
  playerWidth = 1000;
  // Stand-in: the browser's own HLS (an iPhone's), so the player takes its native path instead of an error.
  HTMLMediaElement.prototype.canPlayType = (type: string) => (type === 'application/vnd.apple.mpegurl' ? 'maybe' : '');
  // Stand-in layout: every element is as wide as the player; the observer reports that once when it starts.
  HTMLElement.prototype.getBoundingClientRect = () => new DOMRect(0, 0, playerWidth, 40);
  globalThis.ResizeObserver = class {
    constructor(private readonly report: ResizeObserverCallback) {}
    observe(target: Element) {
      const entry = { target, contentRect: new DOMRect(0, 0, playerWidth, 300) } as ResizeObserverEntry;
      this.report([entry], this as unknown as ResizeObserver);
    }
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
});
afterEach(() => {
  HTMLMediaElement.prototype.canPlayType = realCanPlayType;
  HTMLElement.prototype.getBoundingClientRect = realRect;
  globalThis.ResizeObserver = realResizeObserver;
});

async function renderPlayer(
  marks: { chapters: PlayerMark[]; slides: PlayerMark[] } = { chapters: [], slides: [] },
  startAt = 0,
) {
  const store = createStore();
  store.set(playerMarksAtom, marks);
  render(
    <Provider store={store}>
      <VideoPlayer
        src="/media/videos/v1/master.m3u8"
        durationHint={LECTURE_SECONDS}
        captions={captions}
        startAt={startAt}
      />
    </Provider>,
  );
  const player = screen.getByRole('region', { name: 'Video player' });
  const video = player.querySelector('video')!;
  // Stand-in: the stream's length, which a real element learns from the playlist.
  Object.defineProperty(video, 'duration', { configurable: true, get: () => LECTURE_SECONDS });
  // The native path is chosen after hls.js's module has loaded (asynchronously).
  await waitFor(() => expect(video.getAttribute('src')).toBe('/media/videos/v1/master.m3u8'));
  return { store, player, video, bar: within(player) };
}

const seek = () => screen.getByRole('slider', { name: 'Seek' });
const announcement = () => screen.getByTestId('player-announcement').textContent?.trim();

test('the bar plays and pauses the video; the big Play button goes while it plays', async () => {
  const { player, video } = await renderPlayer();
  const user = userEvent.setup();
  expect(within(player).getAllByRole('button', { name: 'Play' })).toHaveLength(2);
  await user.click(within(player).getAllByRole('button', { name: 'Play' })[1]!);
  expect(video.paused).toBe(false);
  expect(within(player).getAllByRole('button', { name: 'Pause' })).toHaveLength(1);
  expect(within(player).queryByRole('button', { name: 'Play' })).toBeNull();
  await user.click(within(player).getByRole('button', { name: 'Pause' }));
  expect(video.paused).toBe(true);
  expect(within(player).getAllByRole('button', { name: 'Play' })).toHaveLength(2);
  expect(screen.getByTestId('player-time').textContent).toBe('0:00 / 2:00');
});

test('the big Play button hands focus to the player as it goes, so the keys work at once (mouse and Enter)', async () => {
  const { player, video } = await renderPlayer();
  const user = userEvent.setup();
  await user.click(within(player).getAllByRole('button', { name: 'Play' })[0]!);
  expect(video.paused).toBe(false);
  expect(document.activeElement).toBe(player);
  await user.keyboard(' ');
  expect(video.paused).toBe(true);
  // Tab to the big Play (the player itself is the first stop) and press Enter.
  (document.activeElement as HTMLElement).blur();
  await user.tab();
  await user.tab();
  expect(document.activeElement).toBe(within(player).getAllByRole('button', { name: 'Play' })[0]!);
  await user.keyboard('{Enter}');
  expect(video.paused).toBe(false);
  expect(document.activeElement).toBe(player);
  await user.keyboard('m');
  expect(video.muted).toBe(true);
});

test('speed is set on the video and remembered; CC turns captions on and off, the language menu picks one', async () => {
  const { video } = await renderPlayer();
  const user = userEvent.setup();
  await user.selectOptions(screen.getByLabelText('Playback speed'), '1.5');
  expect(video.playbackRate).toBe(1.5);
  expect(localStorage.getItem('classroom.player.speed')).toBe('1.5');
  // The native path has no levels to choose from: no Quality menu.
  expect(screen.queryByLabelText('Quality')).toBeNull();

  const cc = screen.getByRole('button', { name: 'Captions' });
  expect(cc.getAttribute('aria-pressed')).toBe('false');
  await user.click(cc);
  expect(cc.getAttribute('aria-pressed')).toBe('true');
  expect((screen.getByLabelText('Captions language') as HTMLSelectElement).value).toBe('en');
  await user.selectOptions(screen.getByLabelText('Captions language'), 'fr');
  expect(localStorage.getItem('classroom.player.captions')).toBe('fr');
  await user.click(cc);
  expect(cc.getAttribute('aria-pressed')).toBe('false');
  expect(localStorage.getItem('classroom.player.captions')).toBeNull();
  // CC again brings back the language last turned off.
  await user.click(cc);
  expect((screen.getByLabelText('Captions language') as HTMLSelectElement).value).toBe('fr');
});

test('a narrow player puts speed and captions into the settings menu; Escape closes it, the big Play comes back', async () => {
  playerWidth = 375;
  const { player } = await renderPlayer();
  const user = userEvent.setup();
  expect(player.dataset.compact).toBe('true');
  expect(screen.queryByLabelText('Playback speed')).toBeNull();
  const settings = screen.getByRole('button', { name: 'Settings' });
  expect(settings.getAttribute('aria-expanded')).toBe('false');
  await user.click(settings);
  expect(settings.getAttribute('aria-expanded')).toBe('true');
  const panel = document.getElementById(settings.getAttribute('aria-controls')!)!;
  expect([...panel.querySelectorAll('span')].map((label) => label.textContent)).toEqual(['Speed', 'Captions']);
  expect(within(panel).getByLabelText('Playback speed')).toBeDefined();
  expect(within(panel).getByLabelText('Captions language')).toBeDefined();
  // The big Play button hides while the menu is open; the bar's stays.
  expect(within(player).getAllByRole('button', { name: 'Play' })).toHaveLength(1);
  await user.keyboard('{Escape}');
  expect(screen.queryByLabelText('Playback speed')).toBeNull();
  expect(settings.getAttribute('aria-expanded')).toBe('false');
  expect(within(player).getAllByRole('button', { name: 'Play' })).toHaveLength(2);
});

test('the settings menu opens above the bar where it fits, else above the seek bar, else as a sheet over the bar', () => {
  // A phone's player, 190 px tall: its bar starts at 100 (the seek bar at 124) and ends at 190.
  const bar = { top: 100, seekTop: 124, bottom: 190 };
  expect(menuPlacement(90, 0, bar)).toEqual({ bottom: 90 });
  expect(menuPlacement(110, 0, bar)).toEqual({ bottom: 66 });
  expect(menuPlacement(132, 0, bar)).toEqual({ bottom: 0, maxHeight: 190 });
});

test('keys: Space plays and pauses, the arrows seek 5 s, M mutes; never while a menu has focus', async () => {
  const { player, video } = await renderPlayer();
  fireEvent.keyDown(player, { key: ' ' });
  expect(video.paused).toBe(false);
  fireEvent.keyDown(player, { key: ' ' });
  expect(video.paused).toBe(true);
  video.currentTime = 20;
  fireEvent.keyDown(player, { key: 'ArrowRight' });
  expect(video.currentTime).toBe(25);
  fireEvent.keyDown(seek(), { key: 'ArrowLeft' });
  expect(video.currentTime).toBe(20);
  fireEvent.keyDown(player, { key: 'M' });
  expect(video.muted).toBe(true);
  // Stand-in: happy-dom does not fire volumechange when `muted` changes.
  fireEvent(video, new Event('volumechange'));
  expect(screen.getByRole('button', { name: 'Unmute' })).toBeDefined();
  fireEvent.keyDown(screen.getByLabelText('Playback speed'), { key: 'ArrowRight' });
  expect(video.currentTime).toBe(20);
});

test('touch: a tap hides and shows the controls and never pauses; a double tap on a side seeks 10 s', async () => {
  const { player, video } = await renderPlayer();
  const bar = seek().parentElement!;
  await act(() => video.play());
  expect(bar.className).toContain('opacity-100');
  const tap = (share: number) => fireEvent.pointerUp(video, { pointerType: 'touch', clientX: share * playerWidth });
  tap(0.5);
  await waitFor(() => expect(bar.className).toContain('opacity-0'), { timeout: 1000 });
  expect(video.paused).toBe(false);
  expect(player.className).toContain('cursor-none');
  tap(0.5);
  await waitFor(() => expect(bar.className).toContain('opacity-100'), { timeout: 1000 });
  expect(video.paused).toBe(false);

  video.currentTime = 30;
  tap(0.9);
  tap(0.9);
  expect(video.currentTime).toBe(40);
  tap(0.1);
  tap(0.1);
  expect(video.currentTime).toBe(30);
  expect(video.paused).toBe(false);
  // A mouse click on the picture pauses.
  fireEvent.pointerUp(video, { pointerType: 'mouse', clientX: 300 });
  expect(video.paused).toBe(true);
});

test('chapters and slides are ticks on the seek bar; the current chapter shows beside the time and in the slider', async () => {
  const slides = Array.from({ length: 12 }, (_, index) => slide(index * 10));
  const { video } = await renderPlayer({
    chapters: [chapter(0, 'Introduction'), chapter(45, 'Waves carry energy'), chapter(90, 'Summary')],
    slides,
  });
  const ticks = [...screen.getByTestId('seek-marks').children] as HTMLElement[];
  const kinds = (kind: string) => ticks.filter((tick) => tick.dataset.kind === kind);
  // The bar's start needs no tick; every other chapter has one, and each slide not on top of a chapter.
  expect(kinds('chapter').map((tick) => tick.style.left)).toEqual(['37.5%', '75%']);
  expect(kinds('slide')).toHaveLength(10);
  expect(ticks.every((tick) => tick.closest('[aria-hidden="true"]'))).toBe(true);
  expect(screen.getByTestId('player-chapter').textContent).toBe('Introduction');
  expect(seek().getAttribute('aria-valuetext')).toBe('0:00 of 2:00, Introduction');

  video.currentTime = 50;
  fireEvent(video, new Event('timeupdate'));
  expect(screen.getByTestId('player-chapter').textContent).toBe('Waves carry energy');
  expect(seek().getAttribute('aria-valuetext')).toBe('0:50 of 2:00, Waves carry energy');
});

test('300 slides on a phone-wide bar are spaced out, not painted solid', async () => {
  playerWidth = 343;
  const slides = Array.from({ length: 300 }, (_, index) => slide(index * 0.4));
  await renderPlayer({ chapters: [], slides });
  const ticks = [...screen.getByTestId('seek-marks').children] as HTMLElement[];
  expect(ticks.length).toBeGreaterThan(40);
  expect(ticks.length).toBeLessThanOrEqual(Math.floor(playerWidth / 4));
  const lefts = ticks.map((tick) => (Number.parseFloat(tick.style.left) / 100) * playerWidth);
  expect(lefts.slice(1).every((left, index) => left - lefts[index]! >= 4)).toBe(true);
});

test('[ and ] go to the previous and next slide and say where they went', async () => {
  const { player, video } = await renderPlayer({
    chapters: [chapter(0, 'Introduction'), chapter(60, 'Summary')],
    slides: [slide(0), slide(15), slide(40), slide(70)],
  });
  video.currentTime = 20;
  fireEvent.keyDown(player, { key: ']' });
  expect(video.currentTime).toBe(40);
  expect(announcement()).toBe('Slide at 40 (3 of 4), 0:40');
  fireEvent.keyDown(player, { key: '[' });
  expect(video.currentTime).toBe(15);
  fireEvent.keyDown(player, { key: '[' });
  expect(video.currentTime).toBe(0);
  expect(announcement()).toBe('Slide at 0 (1 of 4), 0:00');
  fireEvent.keyDown(player, { key: '[' });
  expect(video.currentTime).toBe(0);
  expect(announcement()).toBe('No previous slide');
  video.currentTime = 75;
  fireEvent.keyDown(player, { key: ']' });
  expect(video.currentTime).toBe(75);
  expect(announcement()).toBe('No next slide');
  // The same words again are still read: the live region's text changes.
  const before = screen.getByTestId('player-announcement').textContent;
  fireEvent.keyDown(player, { key: ']' });
  expect(screen.getByTestId('player-announcement').textContent).not.toBe(before);
  expect(announcement()).toBe('No next slide');
});

test('a resume point shows as the time, the seek bar and the chapter before the video has loaded', async () => {
  await renderPlayer({ chapters: [chapter(0, 'Introduction'), chapter(45, 'Waves carry energy')], slides: [] }, 50);
  expect(screen.getByTestId('player-time').textContent).toBe('0:50 / 2:00');
  expect(seek().getAttribute('aria-valuenow')).toBe('50');
  expect(screen.getByTestId('player-chapter').textContent).toBe('Waves carry energy');
});

test("the page's clock is the resume point before Play, follows a jump, and is 0 again when the player goes", async () => {
  const { store, player } = await renderPlayer(
    { chapters: [chapter(0, 'Introduction'), chapter(45, 'Waves carry energy')], slides: [] },
    50.6,
  );
  expect(store.get(playerClockAtom)).toBe(50);
  fireEvent.keyDown(player, { key: '[' });
  expect(store.get(playerClockAtom)).toBe(0);
  cleanup();
  expect(store.get(playerClockAtom)).toBe(0);
});

test('without slides [ and ] go by chapter; without marks they do nothing', async () => {
  const { store, player, video } = await renderPlayer({
    chapters: [chapter(0, 'Introduction'), chapter(45, 'Waves carry energy')],
    slides: [],
  });
  fireEvent.keyDown(player, { key: ']' });
  expect(video.currentTime).toBe(45);
  expect(announcement()).toBe('Waves carry energy (2 of 2), 0:45');
  expect(screen.getByTestId('player-chapter').textContent).toBe('Waves carry energy');
  fireEvent.keyDown(player, { key: ']' });
  expect(announcement()).toBe('No next chapter');

  act(() => store.set(playerMarksAtom, { chapters: [], slides: [] }));
  expect(screen.queryByTestId('seek-marks')).toBeNull();
  expect(screen.queryByTestId('player-chapter')).toBeNull();
  expect(seek().getAttribute('aria-valuetext')).toBe('0:45 of 2:00');
  const unhandled = fireEvent.keyDown(player, { key: '[' });
  expect(unhandled).toBe(true);
  expect(video.currentTime).toBe(45);
});

test('a browser with no way to play HLS reads the Initialization Error; Retry tries 3 times, then offers a reload', async () => {
  // No stand-in here: happy-dom, like an old browser, has neither MediaSource nor native HLS.
  HTMLMediaElement.prototype.canPlayType = realCanPlayType;
  const user = userEvent.setup();
  render(
    <Provider store={createStore()}>
      <VideoPlayer src="/media/videos/v1/master.m3u8" durationHint={LECTURE_SECONDS} />
    </Provider>,
  );
  const alert = await screen.findByRole('alert');
  expect(alert.dataset.error).toBe('unsupported');
  expect(within(alert).getByText('Initialization Error').tagName).toBe('P');
  expect(within(alert).getByText('This browser cannot play these videos. Please use a current browser.')).toBeDefined();
  for (let attempt = 0; attempt < 3; attempt++) {
    await user.click(within(screen.getByRole('alert')).getByRole('button', { name: 'Retry Playback' }));
    await screen.findByRole('alert');
  }
  const last = await screen.findByRole('alert');
  expect(within(last).getByText('Maximum retry attempts reached')).toBeDefined();
  expect(within(last).getByRole('button', { name: 'Reload the page' })).toBeDefined();
  expect(within(last).queryByRole('button', { name: 'Retry Playback' })).toBeNull();
});

test('offline, a lecture that is not saved on the device says so, not that the connection dropped', async () => {
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => false });
  try {
    const { video } = await renderPlayer();
    fireEvent(video, new Event('error'));
    const alert = await screen.findByRole('alert');
    expect(alert.dataset.error).toBe('offline');
    expect(within(alert).getByText('Network Error')).toBeDefined();
    expect(
      within(alert).getByText(
        "You're offline – this lecture isn't saved on this device. Connect to the internet to watch it.",
      ),
    ).toBeDefined();
    expect(within(alert).queryByText(/connection dropped/)).toBeNull();
  } finally {
    // Back to the prototype's own getter.
    delete (navigator as { onLine?: boolean }).onLine;
  }
});
