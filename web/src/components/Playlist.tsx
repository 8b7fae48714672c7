import { useState } from 'react';
import type { Lecture } from '../api/lectures';
import { MoreIcon, PlayIcon, PlusIcon } from './icons';
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
          Course Playlist
        </h2>
        {isTeacher && (
          <button type="button" className="btn btn-primary h-9 px-3 text-xs" onClick={onAdd}>
            <PlusIcon size={16} /> Add New Topic
          </button>
        )}
      </div>
      {lectures.length === 0 ? (
        <p className="px-4 py-8 text-center text-sm text-slate-500">
          {isTeacher ? 'No topics yet. Add the first lecture.' : 'No lectures yet.'}
        </p>
      ) : (
        <ol className="flex max-h-[32rem] flex-col gap-1 overflow-y-auto p-2">
          {lectures.map((lecture, index) => {
            const selected = lecture._id === selectedId;
            return (
              <li key={lecture._id} className="relative">
                <div
                  className={`flex items-start gap-3 rounded-xl p-2 pr-10 transition-colors ${
                    selected ? 'bg-indigo-50 ring-1 ring-indigo-200' : 'hover:bg-slate-50'
                  }`}
                >
                  <div className="relative aspect-video w-24 shrink-0 overflow-hidden rounded-lg bg-slate-800">
                    {lecture.video?.posterUrl ? (
                      <img src={lecture.video.posterUrl} alt="" className="size-full object-cover" loading="lazy" />
                    ) : (
                      <span className="flex size-full items-center justify-center text-slate-400">
                        <PlayIcon size={16} />
                      </span>
                    )}
                  </div>
                  <div className="flex min-w-0 flex-1 flex-col gap-0.5">
                    <button
                      type="button"
                      className="text-left text-sm font-medium break-words text-slate-900 after:absolute after:inset-0 after:content-['']"
                      aria-current={selected ? 'true' : undefined}
                      onClick={() => onSelect(lecture)}
                    >
                      <span className="text-slate-600">{index + 1}. </span>
                      {lecture.nameOfTopic}
                    </button>
                    <LectureStatus lecture={lecture} canRetry={isTeacher} />
                  </div>
                </div>
                {isTeacher && (
                  <div className="absolute top-2 right-1 z-10">
                    <button
                      type="button"
                      className="icon-btn size-8"
                      aria-label={`Actions for ${lecture.nameOfTopic}`}
                      aria-expanded={menuFor === lecture._id}
                      onClick={() => setMenuFor((open) => (open === lecture._id ? null : lecture._id))}
                    >
                      <MoreIcon size={16} />
                    </button>
                    {menuFor === lecture._id && (
                      <div
                        role="menu"
                        className="absolute right-0 z-20 mt-1 flex w-32 flex-col rounded-xl border border-slate-200 bg-white p-1 shadow-lg"
                      >
                        <button
                          type="button"
                          role="menuitem"
                          className="rounded-lg px-3 py-2 text-left text-sm hover:bg-slate-100"
                          onClick={() => {
                            setMenuFor(null);
                            onEdit(lecture);
                          }}
                        >
                          Edit
                        </button>
                        <button
                          type="button"
                          role="menuitem"
                          className="rounded-lg px-3 py-2 text-left text-sm text-red-600 hover:bg-red-50"
                          onClick={() => {
                            setMenuFor(null);
                            onDelete(lecture);
                          }}
                        >
                          Delete
                        </button>
                      </div>
                    )}
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
