import { controlsShown, type PlayerState } from '../state/player-state';

/**
 * The chosen captions' cues, drawn by the player (readable in its own full screen too): above the seek bar while the
 * controls show, near the bottom when they hide. See useCaptionTracks for when the engine draws them instead.
 * The cues are the teacher's words in the captions' own language: each line takes its direction from its text
 * (an Arabic caption reads right to left in the left-to-right player, whatever the language on screen).
 */
export function CaptionOverlay({ state, language }: { state: PlayerState; language: string | null }) {
  if (!language || state.cueLines.length === 0) return null;
  return (
    <div
      className="pointer-events-none absolute inset-x-0 z-10 flex flex-col items-center px-3 transition-[bottom]"
      style={{ bottom: controlsShown(state) ? state.seekTop + 6 : 12 }}
      data-testid="captions"
      lang={language}
      dir="auto"
      translate="no"
    >
      {state.cueLines.map((line, index) => (
        <p
          // biome-ignore lint/suspicious/noArrayIndexKey: cues have no stable id of their own
          key={index}
          dir="auto"
          className={`max-w-[90%] rounded bg-black/75 px-2 py-0.5 text-center whitespace-pre-line text-white ${state.compact ? 'text-sm' : 'text-lg'}`}
        >
          {line}
        </p>
      ))}
    </div>
  );
}
