import type { KeyboardEvent } from 'react';
import type { PlayerCommands } from './usePlayerCommands';

const SEEK_SECONDS = 5;
const KEYS = [' ', 'ArrowLeft', 'ArrowRight', 'm', 'f', '[', ']'];

/**
 * The player's keys, while it has focus and never while typing: Space plays or pauses, ←/→ seek 5 s, M mutes, F is
 * full screen, `[` and `]` go to the previous and next slide (chapter when there are no slides; only when there
 * are marks). The seek bar (a slider) takes the same keys.
 */
export function usePlayerKeyboard(commands: PlayerCommands, showControls: () => void) {
  return (event: KeyboardEvent<HTMLElement>) => {
    const target = event.target as HTMLElement;
    if (target.closest('input, textarea, select, [contenteditable="true"]') && target.getAttribute('type') !== 'range')
      return;
    const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
    if (!KEYS.includes(key)) return;
    if ((key === '[' || key === ']') && !commands.hasMarks()) return;
    event.preventDefault();
    showControls();
    if (key === ' ') commands.togglePlay();
    else if (key === 'ArrowLeft') commands.seekBy(-SEEK_SECONDS);
    else if (key === 'ArrowRight') commands.seekBy(SEEK_SECONDS);
    else if (key === 'm') commands.toggleMute();
    else if (key === '[') commands.jump('previous');
    else if (key === ']') commands.jump('next');
    else commands.toggleFullscreen();
  };
}
