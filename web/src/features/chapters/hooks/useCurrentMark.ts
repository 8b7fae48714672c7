import { useAtomValue } from 'jotai';
import { playerClockAtom, seekRequestAtom } from '../../player/state/player';
import { currentIndex } from '../api/chapters';

/**
 * The index of the chapter or slide playing, from the player's clock (whole seconds). Just after a jump asked for
 * on the page the clock can still read the second before the mark (a seek lands a hair early and floors down), so
 * while it is within that second the mark jumped to counts as playing.
 */
export function useCurrentMark(marks: readonly { seconds: number }[]) {
  const clock = useAtomValue(playerClockAtom);
  const request = useAtomValue(seekRequestAtom);
  const jumpedTo = request ? marks.findIndex((mark) => mark.seconds === request.seconds) : -1;
  if (jumpedTo >= 0 && request && clock >= Math.floor(request.seconds) - 1 && clock <= request.seconds) return jumpedTo;
  return currentIndex(marks, clock);
}
