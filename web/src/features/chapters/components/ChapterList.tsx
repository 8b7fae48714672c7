import { formatClock } from '@lib/format';
import { t } from '@lib/i18n';
import { seekRequestAtom, useCurrentMark } from '@lib/playback';
import { useSetAtom } from 'jotai';
import { useEffect, useRef } from 'react';
import type { Chapter } from '../api/chapters';

/**
 * A lecture's chapters as buttons that take the player to their start; the one playing is marked (from the
 * player's clock) and kept in sight inside the list's own scroll, never by scrolling the page or moving focus.
 */
export function ChapterList({ chapters, labelledBy }: { chapters: Chapter[]; labelledBy?: string }) {
  const seek = useSetAtom(seekRequestAtom);
  const current = useCurrentMark(chapters);
  const list = useRef<HTMLOListElement>(null);

  useEffect(() => {
    const box = list.current;
    const item = box?.children[current] as HTMLElement | undefined;
    if (!box || !item || box.scrollHeight <= box.clientHeight) return;
    if (item.offsetTop < box.scrollTop || item.offsetTop + item.offsetHeight > box.scrollTop + box.clientHeight) {
      box.scrollTo({ top: item.offsetTop - box.clientHeight / 2 + item.offsetHeight / 2 });
    }
  }, [current]);

  return (
    <ol
      ref={list}
      aria-labelledby={labelledBy}
      aria-label={labelledBy ? undefined : t('chapters.title')}
      className="relative flex max-h-72 flex-col gap-1 overflow-y-auto p-2"
      data-testid="chapter-list"
    >
      {chapters.map((chapter, index) => (
        <li key={`${chapter.seconds}-${chapter.title}`}>
          <button
            type="button"
            className={`flex min-h-9 w-full items-baseline gap-3 rounded-lg px-3 py-2 text-start pointer-coarse:min-h-11 pointer-coarse:items-center text-sm transition-colors ${
              index === current
                ? 'bg-indigo-50 font-medium text-indigo-900 ring-1 ring-indigo-200'
                : 'hover:bg-slate-50'
            }`}
            aria-current={index === current ? 'true' : undefined}
            onClick={() => seek({ seconds: chapter.seconds, at: Date.now() })}
          >
            <span className="w-14 shrink-0 font-mono text-xs text-indigo-700 tabular-nums">
              {formatClock(chapter.seconds)}
            </span>
            <span className="min-w-0 break-words text-slate-900" translate="no" dir="auto">
              {chapter.title}
            </span>
          </button>
        </li>
      ))}
    </ol>
  );
}
