import { expect, test } from 'bun:test';
import { t } from '@lib/i18n';
import type { PlayerMark } from '@lib/playback';
import { adjacentMark, jumpAnnouncement, markAt, marksWithin, visibleTicks } from './marks';
import { PLAYER_ERRORS } from './player-errors';
import {
  canRetry,
  controlsShown,
  initialPlayerState,
  MAX_RETRIES,
  type PlayerAction,
  playerReducer,
} from './player-state';

const start = () => initialPlayerState({ speed: 1, captionLanguage: null });
const run = (...actions: PlayerAction[]) => actions.reduce(playerReducer, start());
const mark = (seconds: number, kind: PlayerMark['kind'] = 'slide'): PlayerMark => ({
  seconds,
  label: `${kind} ${seconds}`,
  kind,
});

test('a segment arriving ends a network error and the quiet notice, never another kind of error', () => {
  const network = run({ type: 'notice', notice: 'x' }, { type: 'error', error: PLAYER_ERRORS.network });
  expect(playerReducer(network, { type: 'segment-loaded' })).toMatchObject({ error: null, notice: null });
  const media = run({ type: 'error', error: PLAYER_ERRORS.media });
  expect(playerReducer(media, { type: 'segment-loaded' }).error).toBe(PLAYER_ERRORS.media);
  expect({ title: t(PLAYER_ERRORS.network.title), detail: t(PLAYER_ERRORS.network.detail) }).toEqual({
    title: 'Network Error',
    detail: 'The connection dropped. Trying again…',
  });
});

test('Retry builds the player again up to the limit; a rebuild after a fatal error spends no retry', () => {
  let state = run({ type: 'error', error: PLAYER_ERRORS.playback }, { type: 'rebuild' });
  expect({ build: state.build, retries: state.retries }).toEqual({ build: 1, retries: 0 });
  for (let attempt = 1; attempt <= MAX_RETRIES; attempt++) {
    state = playerReducer({ ...state, error: PLAYER_ERRORS.native }, { type: 'retry' });
    expect({ build: state.build, retries: state.retries, error: state.error }).toEqual({
      build: 1 + attempt,
      retries: attempt,
      error: null,
    });
  }
  expect(canRetry(state)).toBe(false);
  const spent = { ...state, error: PLAYER_ERRORS.native };
  expect(playerReducer(spent, { type: 'retry' })).toBe(spent);
});

test('the controls show while paused and while the settings menu is open; a wide player has no menu', () => {
  const playing = run({ type: 'play' }, { type: 'controls', visible: false });
  expect(controlsShown(playing)).toBe(false);
  expect(controlsShown(playerReducer(playing, { type: 'menu', open: true }))).toBe(true);
  expect(controlsShown(playerReducer(playing, { type: 'pause' }))).toBe(true);
  const open = run({ type: 'compact', compact: true }, { type: 'menu', open: true });
  expect(playerReducer(open, { type: 'compact', compact: false }).menuOpen).toBe(false);
});

test('marks: the one the time is in, the previous and next (slides first, else chapters), none past the end', () => {
  const slides = marksWithin([mark(40), mark(0), mark(15), mark(500)], 120);
  expect(slides.map((slide) => slide.seconds)).toEqual([0, 15, 40]);
  expect(markAt(slides, 14.9)?.seconds).toBe(15);
  expect(markAt(slides, 14)?.seconds).toBe(0);
  const chapters = [mark(0, 'chapter'), mark(60, 'chapter')];
  expect(adjacentMark({ chapters, slides }, 20, 'next')?.mark.seconds).toBe(40);
  expect(adjacentMark({ chapters, slides }, 20, 'previous')?.mark.seconds).toBe(0);
  expect(adjacentMark({ chapters, slides: [] }, 20, 'next')).toMatchObject({ index: 1, total: 2 });
  expect(adjacentMark({ chapters: [], slides: [] }, 20, 'next')).toBeNull();
  expect(jumpAnnouncement(null, 'chapter', 'previous')).toBe('No previous chapter');
});

test('ticks: every chapter, slides at least 4 px apart and off the chapters; none where the bar starts', () => {
  const chapters = [mark(0, 'chapter'), mark(50, 'chapter')];
  const slides = [mark(0), mark(10), mark(10.2), mark(20), mark(49.5), mark(80)];
  const ticks = visibleTicks(chapters, slides, 100, 200);
  expect(ticks.map((tick) => `${tick.kind} ${tick.seconds}`)).toEqual([
    'chapter 50',
    'slide 10',
    'slide 20',
    'slide 80',
  ]);
  expect(visibleTicks(chapters, slides, 0, 200)).toEqual([]);
});

test('the same announcement twice still changes the live region', () => {
  const once = run({ type: 'announce', text: 'No next slide' });
  const twice = playerReducer(once, { type: 'announce', text: 'No next slide' });
  expect(twice.announcement).not.toBe(once.announcement);
  expect(twice.announcement.trim()).toBe('No next slide');
});
