import { formatClock } from '@lib/format';
import { t } from '@lib/i18n';
import type { PlayerMark } from '@lib/playback';
import { FullscreenIcon, MuteIcon, PauseIcon, PlayIcon, ReplayIcon, VolumeIcon } from '@ui/icons';
import type { Dispatch, ReactNode, RefObject } from 'react';
import type { PlayerCommands } from '../hooks/usePlayerCommands';
import { controlsShown, type PlayerAction, type PlayerState } from '../state/player-state';
import { CaptionsIcon, PictureInPictureIcon } from './PlayerIcons';
import { PlayerMenus, SettingsButton, useSettingsMenu } from './PlayerMenus';
import { SeekBar } from './SeekBar';

/**
 * The player's bottom bar: seek bar, play, mute and volume, time and chapter, speed, quality, captions,
 * picture-in-picture and fullscreen. A narrow player (`compact`: a phone, a narrow column on a tablet) puts speed,
 * quality and the captions language into one settings menu, as YouTube's gear does, so nothing is ever cut off.
 * The chapter playing now gets a readable width either way: on a narrow player, under the time in the row's own
 * height (a phone's player has no height to spare); on a wide one, a line of its own under the seek bar (the row is
 * full of controls). Cut with an ellipsis only past that, the whole name in its title and the slider's value.
 */
export function PlayerControls({
  state,
  dispatch,
  commands,
  duration,
  captions,
  marks,
  chapter,
  barRef,
  seekOverlay,
  hidden = false,
}: {
  state: PlayerState;
  dispatch: Dispatch<PlayerAction>;
  commands: PlayerCommands;
  /** The lecture's length (the server's, until the stream says). */
  duration: number;
  captions: { language: string; label: string }[];
  /** In time order, within the duration. */
  marks: { chapters: PlayerMark[]; slides: PlayerMark[] };
  chapter: PlayerMark | null;
  /** The bar itself: the player measures where its seek bar starts, to keep the captions above it. */
  barRef: RefObject<HTMLDivElement | null>;
  /** Drawn just above the seek bar, as wide as it (the teacher's strip). */
  seekOverlay?: ReactNode;
  /** Out of sight and out of the Tab order (a question asks over the picture). */
  hidden?: boolean;
}) {
  const { compact, playing, ended, muted, volume, current } = state;
  const menu = useSettingsMenu(state.menuOpen, dispatch, barRef);
  // The CC button turns the last chosen (or the first) language on and off; with several, a menu picks one.
  const toggleCaptions = () => {
    if (state.captionLanguage) commands.chooseCaptions(null);
    else {
      const last = captions.find((caption) => caption.language === state.lastCaptionLanguage);
      commands.chooseCaptions(last?.language ?? captions[0]?.language ?? null);
    }
  };
  const captionsOn = state.captionLanguage !== null;
  const time = (
    <span className="whitespace-nowrap tabular-nums" data-testid="player-time">
      {formatClock(current)} / {formatClock(duration)}
    </span>
  );
  const chapterName = (className: string) =>
    chapter && (
      <span
        className={`max-w-full truncate text-white/85 ${className}`}
        title={chapter.label}
        data-testid="player-chapter"
        translate="no"
        dir="auto"
      >
        {chapter.label}
      </span>
    );
  return (
    <div
      ref={barRef}
      className={`absolute inset-x-0 bottom-0 z-20 ${hidden ? 'hidden' : 'flex'} flex-col gap-1 bg-gradient-to-t from-black/80 to-transparent pt-6 text-white transition-opacity duration-300 ${compact ? 'px-1.5 pb-1' : 'px-3 pb-2'} ${
        controlsShown(state) ? 'opacity-100' : 'pointer-events-none opacity-0'
      }`}
    >
      {compact && <PlayerMenus state={state} commands={commands} captions={captions} menu={menu} />}
      {seekOverlay}
      <SeekBar
        current={current}
        duration={duration}
        buffered={state.buffered}
        chapters={marks.chapters}
        slides={marks.slides}
        chapter={chapter}
        onSeek={(share) => commands.seekToShare(share, duration)}
      />
      {!compact && chapterName('self-start px-2 text-sm')}
      <div className={`flex items-center ${compact ? 'gap-0.5' : 'gap-2'}`}>
        <button
          type="button"
          className="player-btn"
          onClick={commands.togglePlay}
          aria-label={t(playing ? 'player.pause' : ended ? 'player.replay' : 'player.play')}
        >
          {playing ? <PauseIcon size={20} /> : ended ? <ReplayIcon size={20} /> : <PlayIcon size={20} />}
        </button>
        <button
          type="button"
          className="player-btn"
          onClick={commands.toggleMute}
          aria-label={t(muted ? 'player.unmute' : 'player.mute')}
        >
          {muted || volume === 0 ? <MuteIcon size={20} /> : <VolumeIcon size={20} />}
        </button>
        <input
          type="range"
          min={0}
          max={1}
          step={0.05}
          value={muted ? 0 : volume}
          aria-label={t('player.volume')}
          className={`player-volume w-20 accent-indigo-500 ${compact ? 'hidden' : 'block'}`}
          onChange={(event) => commands.setVolume(Number(event.target.value))}
        />
        {compact ? (
          // At least as wide as the time; the name takes what the row leaves (w-0: its length never widens the row).
          <span className="ms-1 flex flex-1 flex-col text-xs leading-4">
            {time}
            {chapterName('w-0 min-w-full')}
          </span>
        ) : (
          <>
            <span className="ms-1 text-sm">{time}</span>
            <span className="min-w-0 flex-1" />
          </>
        )}
        {compact ? (
          <SettingsButton menu={menu} />
        ) : (
          <PlayerMenus state={state} commands={commands} captions={captions} />
        )}
        {captions.length > 0 && (
          <button
            type="button"
            className="player-btn"
            onClick={toggleCaptions}
            aria-label={t('player.captions')}
            aria-pressed={captionsOn}
          >
            <CaptionsIcon on={captionsOn} />
          </button>
        )}
        {state.pipSupport && (
          <button
            type="button"
            className="player-btn"
            onClick={() => commands.pictureInPicture(state.pipSupport)}
            aria-label={t('player.pictureInPicture')}
          >
            <PictureInPictureIcon />
          </button>
        )}
        <button
          type="button"
          className="player-btn"
          onClick={commands.toggleFullscreen}
          aria-label={t('player.fullscreen')}
        >
          <FullscreenIcon size={20} />
        </button>
      </div>
    </div>
  );
}
