import { formatDueDate, formatLongDate } from '@lib/format';
import { direction, t } from '@lib/i18n';
import { useDismiss } from '@lib/use-dismiss';
import { MoreIcon, PlayIcon, PlusIcon } from '@ui/icons';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { Lecture } from '../api/lectures';
import { LectureStatus } from './LectureStatus';

/** The Course Playlist: topics in order, the selected one highlighted; teachers get Add and per-topic menus. */
export function Playlist({
  lectures,
  selectedId,
  isTeacher,
  onSelect,
  onAdd,
  onEdit,
  onDelete,
}: {
  lectures: Lecture[];
  selectedId: string | null;
  isTeacher: boolean;
  onSelect: (lecture: Lecture) => void;
  onAdd: () => void;
  onEdit: (lecture: Lecture) => void;
  onDelete: (lecture: Lecture) => void;
}) {
  const [menuFor, setMenuFor] = useState<string | null>(null);
  return (
    <section aria-labelledby="playlist-title" className="card flex flex-col">
      <div className="flex items-center justify-between gap-2 border-b border-slate-100 px-4 py-3">
        <h2 id="playlist-title" className="font-semibold text-slate-900">
          {t('lectures.playlist.title')}
        </h2>
        {isTeacher && (
          <button type="button" className="btn btn-primary h-9 px-3 text-xs" onClick={onAdd}>
            <PlusIcon size={16} /> {t('lectures.playlist.add')}
          </button>
        )}
      </div>
      {lectures.length === 0 ? (
        <p className="px-4 py-8 text-center text-sm text-slate-500">{t('lectures.playlist.empty')}</p>
      ) : (
        // Shorter from 768 px until it moves beside the player at 1280: it sits between the player and its chapters.
        <ol className="flex max-h-[32rem] flex-col gap-1 overflow-y-auto p-2 md:max-h-80 xl:max-h-[32rem]">
          {lectures.map((lecture, index) => {
            const selected = lecture._id === selectedId;
            return (
              <li key={lecture._id} className="relative">
                <div
                  className={`flex items-start gap-3 rounded-xl p-2 pe-10 transition-colors ${
                    selected ? 'bg-indigo-50 ring-1 ring-indigo-200' : 'hover:bg-slate-50'
                  }`}
                >
                  <div className="relative aspect-video w-24 shrink-0 overflow-hidden rounded-lg bg-slate-800">
                    <Thumbnail lecture={lecture} />
                    <WatchedBar lecture={lecture} />
                  </div>
                  <div className="flex min-w-0 flex-1 flex-col gap-0.5">
                    <button
                      type="button"
                      className="playlist-title text-start text-sm font-medium break-words text-slate-900 after:absolute after:inset-0 after:content-['']"
                      aria-current={selected ? 'true' : undefined}
                      onClick={() => onSelect(lecture)}
                    >
                      <span className="text-slate-600">{t('lectures.playlist.number', { number: index + 1 })} </span>
                      <span translate="no">{lecture.nameOfTopic}</span>
                    </button>
                    <LectureStatus lecture={lecture} canRetry={isTeacher} />
                    <DueLine lecture={lecture} isTeacher={isTeacher} />
                  </div>
                </div>
                {isTeacher && (
                  <div className="absolute end-1 top-2 z-10">
                    <TopicMenu
                      lecture={lecture}
                      open={menuFor === lecture._id}
                      onOpenChange={(open) => setMenuFor(open ? lecture._id : null)}
                      onEdit={onEdit}
                      onDelete={onDelete}
                    />
                  </div>
                )}
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}

/**
 * The topic's poster, or a placeholder: for a video that did not process (cancelled, failed: its files may be gone)
 * and for a poster that does not load, never a broken image.
 */
function Thumbnail({ lecture }: { lecture: Lecture }) {
  const video = lecture.video;
  const [broken, setBroken] = useState<string | null>(null);
  const poster = video?.posterUrl;
  const usable = poster && video.status !== 'cancelled' && video.status !== 'failed' && broken !== poster;
  if (usable) {
    return (
      <img src={poster} alt="" className="size-full object-cover" loading="lazy" onError={() => setBroken(poster)} />
    );
  }
  return (
    <span className="flex size-full items-center justify-center text-slate-400" data-testid="thumbnail-placeholder">
      <PlayIcon size={16} />
    </span>
  );
}

/**
 * The lecture's "Watch by" date and, for a student, where they stand (issue 33): "Due Nov 30", "Overdue", "Done
 * late", with the share they really played.
 */
export function DueLine({ lecture, isTeacher }: { lecture: Lecture; isTeacher: boolean }) {
  const coverage = isTeacher ? null : lecture.myCoverage;
  const due = lecture.dueAt;
  if (!due && !coverage) return null;
  const overdue = !!due && Date.parse(due) < Date.now() && !coverage?.completed;
  const state = coverage?.completed
    ? due && (
        <span className={coverage.late ? 'text-amber-700' : 'text-emerald-700'}>
          {t(coverage.late ? 'lectures.due.doneLate' : 'lectures.due.done')}
        </span>
      )
    : overdue
      ? !isTeacher && <span className="font-medium text-rose-700">{t('lectures.due.overdue')}</span>
      : null;
  return (
    <p className="flex flex-wrap gap-x-2 text-xs text-slate-600" data-testid="due-line">
      {due && (!state || isTeacher) && (
        <span title={formatLongDate(due)}>{t('lectures.due.due', { date: formatDueDate(due) })}</span>
      )}
      {state}
      {coverage && coverage.percent > 0 && !coverage.completed && (
        <span>{t('lectures.playlist.watchedPercent', { percent: coverage.percent })}</span>
      )}
    </p>
  );
}

/** How far this user got: a bar along the thumbnail's foot, and a mark on a finished lecture. */
function WatchedBar({ lecture }: { lecture: Lecture }) {
  const progress = lecture.myProgress;
  if (!progress) return null;
  if (progress.completed) {
    return (
      <span className="absolute end-1 bottom-1 rounded bg-black/70 px-1 text-[10px] font-medium text-white">
        {t('lectures.playlist.watchedMark')}
      </span>
    );
  }
  const percent = progress.duration > 0 ? Math.min(100, (progress.position / progress.duration) * 100) : 0;
  return (
    <span
      className="absolute inset-x-0 bottom-0 h-1 bg-white/30"
      role="img"
      aria-label={t('lectures.playlist.watchedPercent', { percent: Math.round(percent) })}
    >
      <span className="block h-full bg-red-600" style={{ width: `${percent}%` }} />
    </span>
  );
}

/**
 * A topic's Edit/Delete menu: drawn above the page (never clipped by the list), closed by Escape, a click outside,
 * a scroll or a choice; arrow keys move between its items and focus goes back to its button.
 */
function TopicMenu({
  lecture,
  open,
  onOpenChange,
  onEdit,
  onDelete,
}: {
  lecture: Lecture;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onEdit: (lecture: Lecture) => void;
  onDelete: (lecture: Lecture) => void;
}) {
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  /** From the top, and from the window's edge on the button's end side (the right in English, the left in Arabic). */
  const [position, setPosition] = useState<{ top: number; end: number } | null>(null);

  const onOpenChangeRef = useRef(onOpenChange);
  onOpenChangeRef.current = onOpenChange;
  // Placed by the button, below it or above when there is no room. It follows the button when the page scrolls
  // or resizes (a scroll event can arrive a frame after the tap that opened it), and closes once the button is
  // out of sight.
  const place = useCallback(() => {
    const button = buttonRef.current;
    if (!button) return;
    const rect = button.getBoundingClientRect();
    if (rect.bottom < 0 || rect.top > window.innerHeight) {
      onOpenChangeRef.current(false);
      return;
    }
    const menuHeight = 96;
    const below = rect.bottom + 4 + menuHeight <= window.innerHeight;
    const end = direction === 'rtl' ? rect.left : window.innerWidth - rect.right;
    setPosition({ top: below ? rect.bottom + 4 : rect.top - 4 - menuHeight, end });
  }, []);
  useLayoutEffect(() => {
    if (open) place();
    else setPosition(null);
  }, [open, place]);
  useEffect(() => {
    if (!open) return;
    window.addEventListener('scroll', place, true);
    window.addEventListener('resize', place);
    return () => {
      window.removeEventListener('scroll', place, true);
      window.removeEventListener('resize', place);
    };
  }, [open, place]);
  // Once placed (and so visible), the first item takes focus; a later move keeps the focus where it is.
  const placed = position !== null;
  useEffect(() => {
    if (open && placed) menuRef.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
  }, [open, placed]);

  // Escape closes and gives focus back to the button; a click outside or Tab just close.
  useDismiss(
    open,
    [menuRef, buttonRef],
    (reason) => {
      onOpenChange(false);
      if (reason === 'escape') buttonRef.current?.focus();
    },
    (event) => {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        const items = [...(menuRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
        const index = items.indexOf(document.activeElement as HTMLElement);
        items[(index + (event.key === 'ArrowDown' ? 1 : -1) + items.length) % items.length]?.focus();
      } else if (event.key === 'Tab') onOpenChange(false);
    },
  );

  const choose = (action: (lecture: Lecture) => void) => {
    onOpenChange(false);
    action(lecture);
  };
  return (
    <>
      <button
        ref={buttonRef}
        type="button"
        className="icon-btn size-8"
        aria-label={t('lectures.playlist.actions', { name: lecture.nameOfTopic })}
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={() => onOpenChange(!open)}
      >
        <MoreIcon size={16} />
      </button>
      {open && (
        <div
          ref={menuRef}
          role="menu"
          aria-label={t('lectures.playlist.actions', { name: lecture.nameOfTopic })}
          className="fixed z-40 flex w-32 flex-col rounded-xl border border-slate-200 bg-white p-1 shadow-lg"
          style={
            position
              ? { top: position.top, [direction === 'rtl' ? 'left' : 'right']: position.end }
              : { visibility: 'hidden' }
          }
        >
          <button
            type="button"
            role="menuitem"
            className="rounded-lg px-3 py-2 text-start text-sm hover:bg-slate-100 focus:bg-slate-100 focus:outline-none"
            onClick={() => choose(onEdit)}
          >
            {t('common.edit')}
          </button>
          <button
            type="button"
            role="menuitem"
            className="rounded-lg px-3 py-2 text-start text-sm text-red-600 hover:bg-red-50 focus:bg-red-50 focus:outline-none"
            onClick={() => choose(onDelete)}
          >
            {t('common.delete')}
          </button>
        </div>
      )}
    </>
  );
}
