import { t } from '@lib/i18n';
import { type PlayerProps, playerClockAtom, playerMarksAtom } from '@lib/playback';
import { useAtomValue, useSetAtom } from 'jotai';
import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { useAutoHideControls } from '../hooks/useAutoHideControls';
import { useCaptionTracks } from '../hooks/useCaptionTracks';
import { useCoverageReports } from '../hooks/useCoverageReports';
import { useHlsPlayer } from '../hooks/useHlsPlayer';
import { CAPTIONS_KEY, rememberedSpeed, usePlayerCommands } from '../hooks/usePlayerCommands';
import { usePlayerCues } from '../hooks/usePlayerCues';
import { usePlayerKeyboard } from '../hooks/usePlayerKeyboard';
import { usePlayerLayout } from '../hooks/usePlayerLayout';
import { usePlayerTouch } from '../hooks/usePlayerTouch';
import { usePositionReports } from '../hooks/usePositionReports';
import { useSeekRequests } from '../hooks/useSeekRequests';
import { markAt, marksWithin } from '../state/marks';
import { connectionError, PLAYER_ERRORS } from '../state/player-errors';
import { controlsShown, initialPlayerState, playerReducer } from '../state/player-state';
import { PlayerControls } from './PlayerControls';
import { PlayerOverlays } from './PlayerOverlays';

export { MAX_RETRIES } from '../state/player-state';

/**
 * The lecture's player: one reducer holds its state (state/player-state.ts), useHlsPlayer drives the stream, and the
 * controls, menus, captions, keyboard and touch are units of their own.
 */
export function VideoPlayer({
  src,
  poster,
  startAt = 0,
  onEnded,
  onPosition,
  durationHint = 0,
  autoPlay = false,
  width,
  height,
  captions = [],
  coverageOf,
  onCoverage,
  seekOverlay,
  cues,
}: PlayerProps) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const containerRef = useRef<HTMLElement>(null);
  const barRef = useRef<HTMLDivElement>(null);
  const [state, dispatch] = useReducer(playerReducer, null, () =>
    initialPlayerState({ speed: rememberedSpeed(), captionLanguage: localStorage.getItem(CAPTIONS_KEY), startAt }),
  );
  const shownDuration = Math.max(state.duration || 0, durationHint);
  const allMarks = useAtomValue(playerMarksAtom);
  const marks = useMemo(
    () => ({
      chapters: marksWithin(allMarks.chapters, shownDuration),
      slides: marksWithin(allMarks.slides, shownDuration),
    }),
    [allMarks, shownDuration],
  );
  const marksRef = useRef(marks);
  marksRef.current = marks;
  const onEndedRef = useRef(onEnded);
  onEndedRef.current = onEnded;
  const setClock = useSetAtom(playerClockAtom);
  // The page's clock is the time the bar shows: the resume point before Play, a jump before the stream loads.
  const clockSeconds = Math.floor(state.current);
  useEffect(() => setClock(clockSeconds), [clockSeconds, setClock]);
  useEffect(() => () => setClock(0), [setClock]);

  const stream = useHlsPlayer(videoRef, src, startAt, autoPlay, { build: state.build, dispatch });
  const commands = usePlayerCommands(videoRef, containerRef, dispatch, stream, marksRef);
  const controls = useAutoHideControls(videoRef, dispatch);
  const reportPosition = usePositionReports(videoRef, src, onPosition);
  useCoverageReports(videoRef, coverageOf, onCoverage);
  useSeekRequests(videoRef, containerRef, stream.seekTo);
  const cue = usePlayerCues(videoRef, containerRef, cues, dispatch);
  const asking = cue.cueAt !== null && !!cues;
  const askHeight = useContentHeight(asking);
  usePlayerLayout(containerRef, barRef, dispatch);
  // A language remembered on this device that this lecture has no captions in shows none (and CC is off).
  const captionLanguage = captions.some((caption) => caption.language === state.captionLanguage)
    ? state.captionLanguage
    : null;
  useCaptionTracks(videoRef, captionLanguage, state.videoAlone, dispatch);
  const shown = { ...state, captionLanguage };
  const onKeyDown = usePlayerKeyboard(commands, controls.show);
  const onPictureUp = usePlayerTouch(commands, controls, state.controlsVisible && state.playing);

  // A portrait lecture at its own aspect (up to most of the screen's height), not boxed into 16:9.
  const portrait = !!width && !!height && height > width;
  const aspectStyle = portrait
    ? { aspectRatio: `${width} / ${height}`, maxHeight: '75dvh', maxWidth: '100%', marginInline: 'auto' }
    : undefined;

  return (
    <section
      ref={containerRef}
      className={`group relative isolate ${portrait ? 'w-auto' : 'aspect-video w-full'} overflow-hidden rounded-2xl bg-black select-none focus-visible:outline-2 ${controlsShown(state) ? '' : 'cursor-none'}`}
      // A question taller than the picture makes the player taller while it asks (never a scroll box in a phone's
      // 200 px); in full screen it scrolls within the screen instead.
      style={asking && askHeight.height > 0 ? { ...aspectStyle, minHeight: askHeight.height } : aspectStyle}
      data-compact={state.compact}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: focusable so Space, arrows, M, F, [ and ] work
      tabIndex={0}
      aria-label={t('player.label')}
      // The controls stay left to right in a right-to-left language, as every video player's do (time reads 0:02 / 0:30).
      dir="ltr"
      data-level={state.activeLevel}
      data-testid="video-player"
      // While a question asks, the player's keys wait: an arrow would seek the video behind it.
      onKeyDown={asking ? undefined : onKeyDown}
      onMouseMove={controls.show}
    >
      {/* biome-ignore lint/a11y/useMediaCaption: the teacher's caption tracks are added when there are any */}
      <video
        ref={videoRef}
        className="size-full"
        poster={poster ?? undefined}
        // Inline on an iPhone (not its full-screen player at the first Play); AirPlay offered (see useHlsPlayer).
        playsInline
        x-webkit-airplay="allow"
        preload="metadata"
        onPointerUp={onPictureUp}
        onLoadedMetadata={(event) => {
          event.currentTarget.defaultPlaybackRate = state.speed;
          event.currentTarget.playbackRate = state.speed;
        }}
        onPlay={() => {
          dispatch({ type: 'play' });
          controls.show();
        }}
        onPlaying={() => dispatch({ type: 'playing' })}
        onPause={() => {
          dispatch({ type: 'pause' });
          reportPosition(true);
        }}
        onEnded={() => {
          dispatch({ type: 'ended' });
          reportPosition(true);
          onEndedRef.current?.();
        }}
        onWaiting={() => dispatch({ type: 'waiting' })}
        onCanPlay={() => dispatch({ type: 'can-play' })}
        onTimeUpdate={(event) => {
          dispatch({ type: 'time', current: event.currentTarget.currentTime });
          reportPosition();
        }}
        onDurationChange={(event) => dispatch({ type: 'duration', duration: event.currentTarget.duration })}
        onProgress={(event) => {
          const ranges = event.currentTarget.buffered;
          dispatch({ type: 'buffered', buffered: ranges.length ? ranges.end(ranges.length - 1) : 0 });
        }}
        onVolumeChange={(event) =>
          dispatch({ type: 'volume', muted: event.currentTarget.muted, volume: event.currentTarget.volume })
        }
        onError={() => {
          if (!stream.usesHlsJs()) dispatch({ type: 'error', error: connectionError(PLAYER_ERRORS.native) });
        }}
      >
        {captions.map((caption) => (
          <track key={caption.id} kind="captions" src={caption.url} srcLang={caption.language} label={caption.label} />
        ))}
      </video>

      <PlayerOverlays
        state={shown}
        captionLanguage={captionLanguage}
        onTogglePlay={() => {
          // The big button goes once it plays: focus stays in the player, so its keys keep working (WCAG 2.4.3).
          containerRef.current?.focus({ preventScroll: true });
          commands.togglePlay();
        }}
        onRetry={() => dispatch({ type: 'retry' })}
        asking={asking}
      />

      {asking && (
        // The question over the picture (inside the player, so full screen shows it too). Its keys are its own:
        // Space types a space in an answer rather than playing the video.
        // biome-ignore lint/a11y/noStaticElementInteractions: it only keeps its keys from the player's shortcuts
        <div
          className="absolute inset-0 z-30 overflow-y-auto bg-slate-950/95 text-white"
          data-testid="question-overlay"
          onKeyDown={(event) => event.stopPropagation()}
        >
          <div ref={askHeight.ref} className="min-h-full">
            {cues.render(cue.cueAt as number, cue.resume)}
          </div>
        </div>
      )}

      <PlayerControls
        state={shown}
        dispatch={dispatch}
        commands={commands}
        duration={shownDuration}
        captions={captions}
        marks={marks}
        chapter={markAt(marks.chapters, state.current)}
        barRef={barRef}
        seekOverlay={seekOverlay}
        // Out of sight and out of the Tab order while a question asks: nothing seeks the video behind it.
        hidden={asking}
      />
    </section>
  );
}

/**
 * The natural height of a question's content (`ref` on it), while `on`: the player grows to it inline. Zero in full
 * screen, where the screen's size is the player's and the question scrolls.
 */
function useContentHeight(on: boolean) {
  const [height, setHeight] = useState(0);
  const observer = useRef<ResizeObserver | null>(null);
  const ref = useCallback((element: HTMLDivElement | null) => {
    observer.current?.disconnect();
    observer.current = null;
    if (!element) return;
    const measure = () => {
      const player = element.closest('[data-testid="video-player"]');
      const fullscreen =
        !!player && (document.fullscreenElement === player || document.fullscreenElement?.contains(player));
      // The content itself, not the box it fills (min-h-full would answer the player's height back).
      const content = element.firstElementChild as HTMLElement | null;
      setHeight(fullscreen || !content ? 0 : Math.ceil(content.getBoundingClientRect().height));
    };
    observer.current = new ResizeObserver(measure);
    observer.current.observe(element);
    if (element.firstElementChild) observer.current.observe(element.firstElementChild);
    measure();
  }, []);
  useEffect(() => {
    if (!on) setHeight(0);
  }, [on]);
  return { ref, height };
}
