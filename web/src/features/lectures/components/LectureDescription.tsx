import { timedLines } from '@contract/chapter-rules';
import { LIMITS } from '@contract/limits';
import { formatClock } from '@lib/format';
import { t } from '@lib/i18n';
import { seekRequestAtom } from '@lib/playback';
import { useSetAtom } from 'jotai';
import { useId, useState } from 'react';

/** Longer than this (lines or characters), a description shows its start and "Show more". */
const SHORT_LINES = 4;
const SHORT_CHARACTERS = 280;

/**
 * A lecture's description as its teacher wrote it: plain text with its line breaks, long text folded after a few
 * lines. When its timed lines are chapters (two or more), each time is a button that takes the player there.
 */
export function LectureDescription({ description }: { description: string }) {
  const seek = useSetAtom(seekRequestAtom);
  const [expanded, setExpanded] = useState(false);
  const id = useId();
  const text = description.trim();
  if (!text) return null;

  const lines = text.split(/\r\n|\r|\n/);
  const { lines: timed } = timedLines(text);
  const timeAt = new Map(
    timed.length >= LIMITS.chaptersMin ? timed.map((line) => [line.line - 1, line.seconds] as const) : [],
  );
  const long = lines.length > SHORT_LINES || text.length > SHORT_CHARACTERS;
  // Folded: whole lines up to the limits, the last one cut short when it alone passes them.
  let shown = lines;
  if (long && !expanded) {
    shown = [];
    let characters = 0;
    for (const line of lines) {
      if (shown.length === SHORT_LINES - 1 || characters + line.length > SHORT_CHARACTERS) {
        if (shown.length === 0) shown.push(`${line.slice(0, SHORT_CHARACTERS).trimEnd()}…`);
        break;
      }
      shown.push(line);
      characters += line.length;
    }
  }

  return (
    <div className="flex flex-col items-start gap-1">
      <h3 className="sr-only">{t('lectures.description.title')}</h3>
      <div
        id={id}
        className="text-sm break-words whitespace-pre-wrap text-slate-700"
        data-testid="lecture-description"
        translate="no"
      >
        {shown.map((line, index) => {
          const seconds = timeAt.get(index);
          const time = seconds === undefined ? null : /^\s*[\d:]+/.exec(line)?.[0];
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: lines of a text keep their place; two may be the same
            <span key={index} className="block min-h-[1lh]">
              {time && seconds !== undefined ? (
                <>
                  <button
                    type="button"
                    className="font-medium text-indigo-700 underline underline-offset-2 hover:text-indigo-900"
                    aria-label={t('lectures.playFrom', { time: formatClock(seconds) })}
                    onClick={() => seek({ seconds, at: Date.now() })}
                  >
                    {time.trim()}
                  </button>
                  {line.slice(time.length)}
                </>
              ) : (
                line
              )}
            </span>
          );
        })}
      </div>
      {long && (
        <button
          type="button"
          // At least 24 px to hit (WCAG 2.2), 44 px on a touch screen.
          className="inline-flex min-h-6 items-center text-sm font-medium text-indigo-700 hover:text-indigo-900 pointer-coarse:min-h-11"
          aria-expanded={expanded}
          aria-controls={id}
          onClick={() => setExpanded((value) => !value)}
        >
          {t(expanded ? 'lectures.description.less' : 'lectures.description.more')}
        </button>
      )}
    </div>
  );
}
