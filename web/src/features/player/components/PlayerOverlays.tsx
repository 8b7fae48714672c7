import { direction, t } from '@lib/i18n';
import { PlayIcon, ReplayIcon } from '@ui/icons';
import { Spinner } from '@ui/Spinner';
import { canRetry, type PlayerState } from '../state/player-state';
import { CaptionOverlay } from './CaptionOverlay';

/**
 * What shows over the picture: the captions, the spinner while buffering, the big Play button, a passing notice,
 * the error with Retry, and the words a screen reader hears after a jump.
 */
export function PlayerOverlays({
  state,
  captionLanguage,
  onTogglePlay,
  onRetry,
  asking = false,
}: {
  state: PlayerState;
  /** The language of the captions shown, or null. */
  captionLanguage: string | null;
  onTogglePlay: () => void;
  onRetry: () => void;
  /** A question is shown over the picture: it, not Play, is what to do next. */
  asking?: boolean;
}) {
  const { error, playing } = state;
  return (
    <>
      <CaptionOverlay state={state} language={captionLanguage} />

      {state.waiting && playing && !error && (
        <div className="pointer-events-none absolute inset-0 flex items-center justify-center">
          <Spinner label={t('player.buffering')} size={48} />
        </div>
      )}

      {/* Hidden while the settings menu is open: the menu would cover part of it on a small player. */}
      {!playing && !error && !state.menuOpen && !asking && (
        <button
          type="button"
          className="absolute top-1/2 left-1/2 z-10 flex size-14 sm:size-16 -translate-x-1/2 -translate-y-1/2 items-center justify-center rounded-full bg-black/60 text-white backdrop-blur transition hover:bg-indigo-600"
          onClick={onTogglePlay}
          aria-label={t(state.ended ? 'player.replay' : 'player.play')}
        >
          {state.ended ? <ReplayIcon size={28} /> : <PlayIcon size={28} />}
        </button>
      )}

      {state.notice && !error && (
        <p
          role="status"
          dir={direction}
          className="pointer-events-none absolute top-2 left-1/2 max-w-[90%] -translate-x-1/2 rounded-full bg-black/70 px-3 py-1 text-center text-xs text-white"
        >
          {state.notice}
        </p>
      )}

      {error && (
        // Above the control bar (the seek bar ran through Retry on a phone-sized player), and opaque enough that
        // the picture behind it does not show through the words.
        <div
          role="alert"
          // The player's frame stays left to right; its words read the way the language on screen does.
          dir={direction}
          className="absolute inset-0 z-30 flex flex-col items-center justify-center gap-1 overflow-y-auto bg-slate-950/95 p-3 text-center text-white sm:gap-2 sm:p-6"
          data-error={error.kind}
        >
          <p className="font-semibold">{t(error.title)}</p>
          <p className="max-w-md text-sm">{t(error.detail)}</p>
          {canRetry(state) ? (
            <button type="button" className="btn btn-primary mt-1 shrink-0" onClick={onRetry}>
              {t('player.retry')}
            </button>
          ) : (
            <>
              <p className="text-sm text-red-300">{t('player.retriesExhausted')}</p>
              <button type="button" className="btn btn-primary" onClick={() => window.location.reload()}>
                {t('player.reload')}
              </button>
            </>
          )}
        </div>
      )}

      {/* Always there, so that a screen reader reads what changes in it (a jump to a slide or chapter). */}
      <p role="status" dir={direction} className="sr-only" data-testid="player-announcement">
        {state.announcement}
      </p>
    </>
  );
}
