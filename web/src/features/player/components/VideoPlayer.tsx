import { useAtomValue, useSetAtom } from 'jotai';
import { type KeyboardEvent, useCallback, useEffect, useRef, useState } from 'react';
import { PlayIcon, ReplayIcon } from '../../../ui/icons';
import { Spinner } from '../../../ui/Spinner';
import { useHlsPlayer } from '../hooks/useHlsPlayer';
import { playerClockAtom, seekRequestAtom } from '../state/player';
import { PlayerControls } from './PlayerControls';

export { MAX_RETRIES } from '../hooks/useHlsPlayer';

const CONTROLS_HIDE_MS = 3000;
const SEEK_SECONDS = 5;
/** A double tap on the left or right third of the picture seeks this far, as on YouTube. */
const DOUBLE_TAP_SECONDS = 10;
const DOUBLE_TAP_MS = 300;
/** Below this player width (its own, not the window's) speed and quality go into the settings menu. */
const COMPACT_BELOW_PX = 560;
const SPEED_KEY = 'classroom.player.speed';
/** The caption language this device chose last; absent (off) by default. */
const CAPTIONS_KEY = 'classroom.player.captions';
/** Seconds of real playback before a lecture counts as started (progress saved, History, the teacher's table). */
const STARTED_AFTER_SECONDS = 3;

const playedSeconds = (video: HTMLVideoElement) => {
  let total = 0;
  for (let i = 0; i < video.played.length; i++) total += video.played.end(i) - video.played.start(i);
  return total;
};

const rememberedSpeed = () => {
  const stored = Number(localStorage.getItem(SPEED_KEY) ?? 1);
  return stored >= 0.25 && stored <= 4 ? stored : 1;
};

/** What Apple's engine adds to a <video> (iPhone full screen, presentation modes). */
type AppleVideo = HTMLVideoElement & {
  webkitDisplayingFullscreen?: boolean;
  webkitEnterFullscreen?: () => void;
  webkitExitFullscreen?: () => void;
  webkitSupportsPresentationMode?: (mode: string) => boolean;
  webkitSetPresentationMode?: (mode: 'inline' | 'picture-in-picture' | 'fullscreen') => void;
  webkitPresentationMode?: string;
};

export type PlayerProps = {
  src: string;
  poster?: string | null;
  /** Where to start, in seconds (resume). */
  startAt?: number;
  onEnded?: () => void;
  /** Called every few seconds while playing, and on pause: the position to remember. */
  onPosition?: (position: number, duration: number) => void;
  /** Start playing at once. */
  autoPlay?: boolean;
  /** The video's length as the server knows it: shown before the stream itself says (nothing loads before Play). */
  durationHint?: number;
  /** The video's width and height, so a portrait lecture is shown at its own aspect. */
  width?: number | null;
  height?: number | null;
  /** The lecture's caption tracks (WebVTT), offered by the CC control. */
  captions?: { id: string; language: string; label: string; url: string }[];
};

/** A cue's text without its WebVTT tags (<i>, <b>, <v Speaker>), as plain lines. */
const cueText = (cue: TextTrackCue) =>
  ((cue as VTTCue).text ?? '')
    .replace(/<[^>]*>/g, '')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&nbsp;/g, '\u00a0');

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
}: PlayerProps) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const containerRef = useRef<HTMLElement>(null);
  const [playing, setPlaying] = useState(false);
  const [ended, setEnded] = useState(false);
  const [waiting, setWaiting] = useState(false);
  const [muted, setMuted] = useState(false);
  const [volume, setVolume] = useState(1);
  const [current, setCurrent] = useState(0);
  const [duration, setDuration] = useState(0);
  const [buffered, setBuffered] = useState(0);
  const [speed, setSpeed] = useState(rememberedSpeed);
  const [compact, setCompact] = useState(false);
  const [captionLanguage, setCaptionLanguage] = useState<string | null>(() => localStorage.getItem(CAPTIONS_KEY));
  const [cueLines, setCueLines] = useState<string[]>([]);
  const shownCaptions = captions.find((caption) => caption.language === captionLanguage) ?? null;
  const lastTap = useRef<{ at: number; x: number } | null>(null);
  const tapTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const [controlsVisible, setControlsVisible] = useState(true);
  const [menuOpen, setMenuOpen] = useState(false);
  const barRef = useRef<HTMLDivElement>(null);
  /** How far above the player's bottom the seek bar starts: the captions sit above it while the controls show. */
  const [seekTop, setSeekTop] = useState(0);
  const hideTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const lastReported = useRef(0);
  const onPositionRef = useRef(onPosition);
  onPositionRef.current = onPosition;
  const onEndedRef = useRef(onEnded);
  onEndedRef.current = onEnded;

  const player = useHlsPlayer(videoRef, src, startAt, autoPlay);
  const { seekTo } = player;
  const setClock = useSetAtom(playerClockAtom);
  const seekRequest = useAtomValue(seekRequestAtom);
  // A time link elsewhere on the page (a comment's 12:34) seeks here and plays.
  const handledSeek = useRef(seekRequest?.at ?? 0);
  useEffect(() => {
    const video = videoRef.current;
    if (!seekRequest || !video || seekRequest.at === handledSeek.current) return;
    handledSeek.current = seekRequest.at;
    // Through the player, so that a time asked for before the stream loads wins over the resume point.
    seekTo(seekRequest.seconds);
    if (video.paused) video.play().catch(() => {});
    containerRef.current?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  }, [seekRequest, seekTo]);
  const { error, setError } = player;

  // The <video> itself in full screen (an iPhone's only full screen, webkitEnterFullscreen) or picture in picture:
  // the player's own caption overlay is not there, so the engine draws the chosen track itself.
  const [videoAlone, setVideoAlone] = useState(false);
  useEffect(() => {
    const video = videoRef.current as AppleVideo | null;
    if (!video) return;
    const check = () => {
      const fullscreenElement =
        document.fullscreenElement ??
        (document as { webkitFullscreenElement?: Element | null }).webkitFullscreenElement;
      setVideoAlone(
        fullscreenElement === video ||
          !!video.webkitDisplayingFullscreen ||
          document.pictureInPictureElement === video ||
          video.webkitPresentationMode === 'fullscreen' ||
          video.webkitPresentationMode === 'picture-in-picture',
      );
    };
    const videoEvents = [
      'webkitbeginfullscreen',
      'webkitendfullscreen',
      'webkitpresentationmodechanged',
      'enterpictureinpicture',
      'leavepictureinpicture',
    ];
    for (const name of videoEvents) video.addEventListener(name, check);
    document.addEventListener('fullscreenchange', check);
    document.addEventListener('webkitfullscreenchange', check);
    return () => {
      for (const name of videoEvents) video.removeEventListener(name, check);
      document.removeEventListener('fullscreenchange', check);
      document.removeEventListener('webkitfullscreenchange', check);
    };
  }, []);

  // Captions: the chosen language's track is "hidden" (its cues fire, the browser draws nothing) and its cues are
  // drawn by the player above its controls, in the player's full screen too; when the <video> is shown alone (its
  // own full screen, picture in picture) the track is "showing" and the engine draws it. Every other track is off.
  // Native HLS players list the master playlist's subtitle renditions as tracks of the same language, so the first
  // match wins.
  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    const apply = () => {
      let chosen: TextTrack | undefined;
      for (const track of Array.from(video.textTracks)) {
        if (track.kind !== 'subtitles' && track.kind !== 'captions') continue;
        const wanted = !chosen && shownCaptions !== null && track.language === shownCaptions.language;
        if (wanted) chosen = track;
        track.mode = wanted ? (videoAlone ? 'showing' : 'hidden') : 'disabled';
      }
      const show = () => setCueLines(Array.from(chosen?.activeCues ?? []).map(cueText));
      chosen?.addEventListener('cuechange', show);
      show();
      return () => chosen?.removeEventListener('cuechange', show);
    };
    let undo = apply();
    const reapply = () => {
      undo();
      undo = apply();
    };
    video.textTracks.addEventListener('addtrack', reapply);
    return () => {
      undo();
      video.textTracks.removeEventListener('addtrack', reapply);
    };
  }, [shownCaptions, videoAlone]);

  const chooseCaptions = (language: string | null) => {
    setCaptionLanguage(language);
    if (language) localStorage.setItem(CAPTIONS_KEY, language);
    else localStorage.removeItem(CAPTIONS_KEY);
  };

  const showControls = useCallback(() => {
    setControlsVisible(true);
    clearTimeout(hideTimer.current);
    hideTimer.current = setTimeout(() => {
      if (!videoRef.current?.paused) setControlsVisible(false);
    }, CONTROLS_HIDE_MS);
  }, []);

  useEffect(
    () => () => {
      clearTimeout(hideTimer.current);
      clearTimeout(tapTimer.current);
    },
    [],
  );

  // The controls follow the player's own width (a narrow column on a tablet is as tight as a phone).
  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setCompact(entry.contentRect.width < COMPACT_BELOW_PX);
    });
    observer.observe(container);
    return () => observer.disconnect();
  }, []);

  // The bar's height changes with the player's width (compact), the pointer (a taller seek bar on touch) and the
  // font size: measured, not guessed.
  useEffect(() => {
    const bar = barRef.current;
    if (!bar) return;
    const measure = () => {
      const seek = bar.querySelector<HTMLElement>('.player-seek');
      if (seek) setSeekTop(Math.ceil(bar.getBoundingClientRect().bottom - seek.getBoundingClientRect().top));
    };
    const observer = new ResizeObserver(measure);
    observer.observe(bar);
    measure();
    return () => observer.disconnect();
  }, []);

  const togglePlay = useCallback(() => {
    const video = videoRef.current;
    if (!video) return;
    if (video.paused || video.ended)
      video.play().catch((failure: Error) => {
        // A play() cut short by a pause or a new source, or refused until the student presses Play: not errors.
        if (failure.name === 'AbortError' || failure.name === 'NotAllowedError') return;
        setError('Playback Error: The video could not start. Press Play to try again.');
      });
    else video.pause();
  }, [setError]);

  const seekBy = (seconds: number) => {
    const video = videoRef.current;
    if (video) video.currentTime = Math.min(Math.max(0, video.currentTime + seconds), video.duration || 0);
  };

  const toggleMute = () => {
    const video = videoRef.current;
    if (video) video.muted = !video.muted;
  };

  const toggleFullscreen = async () => {
    const container = containerRef.current;
    const video = videoRef.current as AppleVideo | null;
    try {
      if (document.fullscreenElement) await document.exitFullscreen();
      else if (video?.webkitDisplayingFullscreen) video.webkitExitFullscreen?.();
      else if (container?.requestFullscreen) await container.requestFullscreen();
      // An iPhone: only the <video> itself goes full screen, with the system's controls and captions.
      else if (video?.webkitEnterFullscreen) video.webkitEnterFullscreen();
      else throw new Error('no full screen');
    } catch {
      setError('Fullscreen Error: This browser did not allow full screen here.');
    }
  };

  const chooseSpeed = (value: number) => {
    setSpeed(value);
    localStorage.setItem(SPEED_KEY, String(value));
    if (videoRef.current) {
      videoRef.current.defaultPlaybackRate = value;
      videoRef.current.playbackRate = value;
    }
  };

  /**
   * A mouse click plays or pauses. A tap (touch) shows or hides the controls and never pauses; a second tap within
   * 300 ms on the left or right third seeks 10 s back or forward.
   */
  const onPictureUp = (event: React.PointerEvent<HTMLVideoElement>) => {
    if (event.pointerType !== 'touch') {
      togglePlay();
      return;
    }
    const rect = event.currentTarget.getBoundingClientRect();
    const x = (event.clientX - rect.left) / rect.width;
    const now = Date.now();
    const previous = lastTap.current;
    if (previous && now - previous.at < DOUBLE_TAP_MS && (x < 1 / 3 || x > 2 / 3)) {
      clearTimeout(tapTimer.current);
      lastTap.current = null;
      seekBy(x < 1 / 3 ? -DOUBLE_TAP_SECONDS : DOUBLE_TAP_SECONDS);
      showControls();
      return;
    }
    lastTap.current = { at: now, x };
    // Wait out a possible second tap before toggling the controls.
    clearTimeout(tapTimer.current);
    tapTimer.current = setTimeout(() => {
      if (controlsVisible && playing) {
        clearTimeout(hideTimer.current);
        setControlsVisible(false);
      } else showControls();
    }, DOUBLE_TAP_MS);
  };

  // Picture in picture: the standard API, or WebKit's presentation modes (an iPhone's Safari).
  const [pipSupport, setPipSupport] = useState<'standard' | 'webkit' | null>(null);
  useEffect(() => {
    const video = videoRef.current as AppleVideo | null;
    if (document.pictureInPictureEnabled && video?.requestPictureInPicture) setPipSupport('standard');
    else if (video?.webkitSupportsPresentationMode?.('picture-in-picture')) setPipSupport('webkit');
  }, []);
  const pictureInPicture = pipSupport
    ? async () => {
        const video = videoRef.current as AppleVideo | null;
        try {
          if (pipSupport === 'webkit') {
            video?.webkitSetPresentationMode?.(
              video.webkitPresentationMode === 'picture-in-picture' ? 'inline' : 'picture-in-picture',
            );
          } else if (document.pictureInPictureElement) await document.exitPictureInPicture();
          else await video?.requestPictureInPicture();
        } catch {
          // refused (no playback yet, or the browser said no): nothing to undo
        }
      }
    : undefined;

  // A portrait lecture at its own aspect (up to most of the screen's height), not boxed into 16:9.
  const portrait = !!width && !!height && height > width;
  const aspectStyle = portrait
    ? { aspectRatio: `${width} / ${height}`, maxHeight: '75dvh', maxWidth: '100%', marginInline: 'auto' }
    : undefined;

  function onKeyDown(event: KeyboardEvent<HTMLElement>) {
    const target = event.target as HTMLElement;
    if (target.closest('input, textarea, select, [contenteditable="true"]') && target.getAttribute('type') !== 'range')
      return;
    const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
    if (![' ', 'ArrowLeft', 'ArrowRight', 'm', 'f'].includes(key)) return;
    event.preventDefault();
    showControls();
    if (key === ' ') togglePlay();
    else if (key === 'ArrowLeft') seekBy(-SEEK_SECONDS);
    else if (key === 'ArrowRight') seekBy(SEEK_SECONDS);
    else if (key === 'm') toggleMute();
    else toggleFullscreen();
  }

  const reportPosition = (force = false) => {
    const video = videoRef.current;
    // A lecture only opened, or played for a moment, is not "started": it stays out of history and the teacher's
    // table until a few seconds have really played.
    if (!video?.duration || playedSeconds(video) < STARTED_AFTER_SECONDS) return;
    const now = Date.now();
    if (!force && now - lastReported.current < 10_000) return;
    lastReported.current = now;
    onPositionRef.current?.(video.currentTime, video.duration);
  };

  // Save the position when the page goes away.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reportPosition reads refs only
  useEffect(() => {
    const onHide = () => reportPosition(true);
    window.addEventListener('pagehide', onHide);
    return () => {
      window.removeEventListener('pagehide', onHide);
      reportPosition(true);
    };
  }, [src]);

  // The controls stay while the settings menu is open.
  const controlsShown = controlsVisible || !playing || menuOpen;
  const shownDuration = Math.max(duration || 0, durationHint);

  return (
    <section
      ref={containerRef}
      className={`group relative ${portrait ? 'w-auto' : 'aspect-video w-full'} overflow-hidden rounded-2xl bg-black select-none focus-visible:outline-2 ${controlsShown ? '' : 'cursor-none'}`}
      style={aspectStyle}
      data-compact={compact}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: focusable so Space, arrows, M and F work
      tabIndex={0}
      aria-label="Video player"
      data-level={player.activeLevel}
      data-testid="video-player"
      onKeyDown={onKeyDown}
      onMouseMove={showControls}
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
          event.currentTarget.defaultPlaybackRate = speed;
          event.currentTarget.playbackRate = speed;
        }}
        onPlay={() => {
          setPlaying(true);
          setEnded(false);
          showControls();
        }}
        onPlaying={() => {
          setWaiting(false);
          setError(null);
        }}
        onPause={() => {
          setPlaying(false);
          setControlsVisible(true);
          reportPosition(true);
        }}
        onEnded={() => {
          setPlaying(false);
          setEnded(true);
          reportPosition(true);
          onEndedRef.current?.();
        }}
        onWaiting={() => setWaiting(true)}
        onCanPlay={() => setWaiting(false)}
        onTimeUpdate={(event) => {
          setCurrent(event.currentTarget.currentTime);
          setClock(Math.floor(event.currentTarget.currentTime));
          reportPosition();
        }}
        onDurationChange={(event) => setDuration(event.currentTarget.duration)}
        onProgress={(event) => {
          const ranges = event.currentTarget.buffered;
          setBuffered(ranges.length ? ranges.end(ranges.length - 1) : 0);
        }}
        onVolumeChange={(event) => {
          setMuted(event.currentTarget.muted);
          setVolume(event.currentTarget.volume);
        }}
        onError={() => {
          if (!player.usesHlsJs())
            setError('Native Player Error: The video could not be played. Check the connection, then press Retry.');
        }}
      >
        {captions.map((caption) => (
          <track key={caption.id} kind="captions" src={caption.url} srcLang={caption.language} label={caption.label} />
        ))}
      </video>

      {shownCaptions && cueLines.length > 0 && (
        <div
          className="pointer-events-none absolute inset-x-0 z-10 flex flex-col items-center px-3 transition-[bottom]"
          // Above the seek bar while the controls show, near the bottom when they hide.
          style={{ bottom: controlsShown ? seekTop + 6 : 12 }}
          data-testid="captions"
          lang={shownCaptions.language}
        >
          {cueLines.map((line, index) => (
            <p
              // biome-ignore lint/suspicious/noArrayIndexKey: cues have no stable id of their own
              key={index}
              className={`max-w-[90%] rounded bg-black/75 px-2 py-0.5 text-center whitespace-pre-line text-white ${compact ? 'text-sm' : 'text-lg'}`}
            >
              {line}
            </p>
          ))}
        </div>
      )}

      {waiting && playing && !error && (
        <div className="pointer-events-none absolute inset-0 flex items-center justify-center">
          <Spinner label="Buffering" size={48} />
        </div>
      )}

      {/* Hidden while the settings menu is open: the menu would cover part of it on a small player. */}
      {!playing && !error && !menuOpen && (
        <button
          type="button"
          className="absolute top-1/2 left-1/2 z-10 flex size-14 sm:size-16 -translate-x-1/2 -translate-y-1/2 items-center justify-center rounded-full bg-black/60 text-white backdrop-blur transition hover:bg-indigo-600"
          onClick={togglePlay}
          aria-label={ended ? 'Replay' : 'Play'}
        >
          {ended ? <ReplayIcon size={28} /> : <PlayIcon size={28} />}
        </button>
      )}

      {player.notice && !error && (
        <p
          role="status"
          className="pointer-events-none absolute top-2 left-1/2 max-w-[90%] -translate-x-1/2 rounded-full bg-black/70 px-3 py-1 text-center text-xs text-white"
        >
          {player.notice}
        </p>
      )}

      {error && (
        <div
          role="alert"
          className="absolute inset-0 flex flex-col items-center justify-center gap-2 bg-black/80 p-6 text-center text-white"
        >
          <p className="font-semibold">{error.split(': ')[0]}</p>
          <p className="max-w-md text-sm">{error.split(': ').slice(1).join(': ')}</p>
          {player.canRetry ? (
            <button type="button" className="btn btn-primary mt-1" onClick={player.retry}>
              Retry Playback
            </button>
          ) : (
            <>
              <p className="text-sm text-red-300">Maximum retry attempts reached</p>
              <button type="button" className="btn btn-primary" onClick={() => window.location.reload()}>
                Reload the page
              </button>
            </>
          )}
        </div>
      )}

      <PlayerControls
        barRef={barRef}
        onMenuOpen={setMenuOpen}
        compact={compact}
        onPictureInPicture={pictureInPicture}
        shown={controlsShown}
        playing={playing}
        ended={ended}
        muted={muted}
        volume={volume}
        current={current}
        duration={shownDuration}
        buffered={buffered}
        speed={speed}
        qualities={player.qualities}
        quality={player.quality}
        onTogglePlay={togglePlay}
        onToggleMute={toggleMute}
        onVolume={(value) => {
          const video = videoRef.current;
          if (!video) return;
          video.volume = value;
          video.muted = value === 0;
        }}
        onSeekTo={(ratio) => {
          const video = videoRef.current;
          if (!video?.duration) return;
          // While it still processes, the stream is shorter than the lecture: seek within what exists.
          video.currentTime = Math.min(ratio * shownDuration, video.duration);
          setCurrent(video.currentTime);
        }}
        onSpeed={chooseSpeed}
        captions={captions}
        captionLanguage={shownCaptions?.language ?? null}
        onCaptions={chooseCaptions}
        onQuality={player.chooseQuality}
        onFullscreen={toggleFullscreen}
      />
    </section>
  );
}
