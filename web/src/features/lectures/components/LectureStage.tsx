import { asSentence, processingForStudents } from '@lib/format';
import { rich, t } from '@lib/i18n';
import type { PlayerCues, PlayerProps } from '@lib/playback';
import { EyeIcon, HeartIcon, PlayIcon } from '@ui/icons';
import { type ComponentType, type ReactNode, useEffect, useState } from 'react';
import { type Lecture, useCountView, useSaveProgress, useToggleLike, useUpdateCachedCoverage } from '../api/lectures';
import { LectureDescription } from './LectureDescription';

/** Seconds the "Up next" card counts down before the next lecture plays. */
const UP_NEXT_SECONDS = 5;

/**
 * The player (or the lecture's processing state) with its name, view count and likes button. When a lecture ends
 * and another follows, "Up next" counts down and plays it, unless the student cancels. The page hands it the player.
 */
export function LectureStage({
  Player,
  lecture,
  next = null,
  onNext,
  autoPlay = false,
  onAddFirst,
  canRetry = false,
  tracked = false,
  seekOverlay,
  cues,
}: {
  /** The video player (features/player), given by the page that composes the two. */
  Player: ComponentType<PlayerProps>;
  lecture: Lecture | null;
  next?: Lecture | null;
  onNext?: (lecture: Lecture) => void;
  autoPlay?: boolean;
  /** The teacher's call to action in an empty class. */
  onAddFirst?: () => void;
  /** The class's teacher: reads why a video did not process and what to do about it. */
  canRetry?: boolean;
  /** What the person plays is counted (a student: not the class's teacher nor an administrator). */
  tracked?: boolean;
  /** Drawn over the player's seek bar (the teacher's strip of where the class played). */
  seekOverlay?: ReactNode;
  /** The lecture's questions for a student (features/questions), asked by the player. */
  cues?: PlayerCues;
}) {
  const updateCached = useUpdateCachedCoverage();
  const toggleLike = useToggleLike();
  const countView = useCountView();
  const saveProgress = useSaveProgress();
  const [upNextIn, setUpNextIn] = useState<number | null>(null);
  useEffect(() => {
    if (upNextIn === null || !next) return;
    if (upNextIn <= 0) {
      setUpNextIn(null);
      onNext?.(next);
      return;
    }
    const timer = setTimeout(() => setUpNextIn((left) => (left === null ? null : left - 1)), 1000);
    return () => clearTimeout(timer);
  }, [upNextIn, next, onNext]);
  if (!lecture) {
    return (
      <div className="card flex aspect-video flex-col items-center justify-center gap-3 bg-slate-900 p-6 text-center text-slate-200">
        <PlayIcon size={36} className="text-slate-400" />
        <p className="font-medium">{t('lectures.stage.empty')}</p>
        {onAddFirst ? (
          <>
            <p className="max-w-sm text-sm text-slate-300">{t('lectures.stage.emptyTeacher')}</p>
            <button type="button" className="btn btn-primary" onClick={onAddFirst}>
              {t('lectures.stage.addFirst')}
            </button>
          </>
        ) : (
          <p className="max-w-sm text-sm text-slate-300">{t('lectures.stage.emptyStudent')}</p>
        )}
      </div>
    );
  }
  const video = lecture.video;
  const resumeAt =
    lecture.myProgress && !lecture.myProgress.completed && lecture.myProgress.position > 5
      ? lecture.myProgress.position
      : 0;

  return (
    <div className="flex flex-col gap-3">
      {video?.playable ? (
        <div className="relative">
          <Player
            // Our own fields, not the spec's videoLink (null until processing completes): the player starts while the
            // video transcodes and is not remounted when it finishes.
            key={`${lecture._id} ${video.masterPlaylist}`}
            // The master of this lecture lists its captions for native HLS players (iPhone's full screen).
            src={`${video.masterPlaylist}?lecture=${lecture._id}`}
            captions={lecture.captions}
            poster={video.posterUrl}
            durationHint={video.durationSeconds}
            width={video.width}
            height={video.height}
            startAt={resumeAt}
            autoPlay={autoPlay}
            onEnded={() => {
              countView.mutate(lecture._id);
              if (next?.video?.playable && onNext) setUpNextIn(UP_NEXT_SECONDS);
            }}
            onPosition={(position, duration) => saveProgress.mutate({ id: lecture._id, position, duration })}
            coverageOf={tracked ? lecture._id : undefined}
            onCoverage={(coverage) => updateCached(lecture, coverage)}
            seekOverlay={seekOverlay}
            cues={cues}
          />
          {upNextIn !== null && next && (
            <div
              role="status"
              className="absolute end-3 top-3 z-20 flex max-w-[calc(100%-1.5rem)] flex-col gap-2 rounded-xl bg-black/85 p-3 text-sm text-white shadow-lg"
            >
              <p>
                {rich(t('lectures.stage.upNext', { name: next.nameOfTopic, seconds: upNextIn }), [
                  (name) => (
                    <strong key="name" className="break-words" translate="no">
                      {name}
                    </strong>
                  ),
                ])}
              </p>
              <div className="flex gap-2">
                <button type="button" className="btn btn-secondary px-3 py-1 text-xs" onClick={() => setUpNextIn(null)}>
                  {t('common.cancel')}
                </button>
                <button
                  type="button"
                  className="btn btn-primary px-3 py-1 text-xs"
                  onClick={() => {
                    setUpNextIn(null);
                    onNext?.(next);
                  }}
                >
                  {t('lectures.stage.playNow')}
                </button>
              </div>
            </div>
          )}
        </div>
      ) : (
        <div className="flex aspect-video flex-col items-center justify-center gap-3 rounded-2xl bg-slate-900 p-6 text-center text-slate-200">
          {!video ? (
            <p className="font-medium">{t('lectures.stage.noVideo')}</p>
          ) : video.status === 'failed' || video.status === 'cancelled' ? (
            <>
              <p className="font-medium">{t('lectures.stage.unavailable')}</p>
              {/* The reason and what to do (Retry, delete) are the teacher's; a student only learns it is not there. */}
              {canRetry && <p className="max-w-sm text-sm text-slate-300">{video.error}</p>}
            </>
          ) : (
            <>
              <p className="font-medium">{t('lectures.stage.preparing')}</p>
              <div className="h-2 w-56 max-w-full overflow-hidden rounded-full bg-slate-700">
                <div className="h-full bg-indigo-500 transition-[width]" style={{ width: `${video.progress}%` }} />
              </div>
              <p className="text-sm text-slate-300">
                {t('lectures.stage.playsSoon', { status: asSentence(processingForStudents(video.etaSeconds)) })}
              </p>
            </>
          )}
        </div>
      )}
      {resumeAt > 0 && video?.playable && <p className="text-xs text-slate-500">{t('lectures.stage.resuming')}</p>}
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 className="text-lg font-semibold break-words text-slate-900" translate="no">
            {lecture.nameOfTopic}
          </h2>
          <p className="mt-0.5 flex items-center gap-1 text-sm text-slate-600">
            <EyeIcon size={16} /> {t('lectures.stage.views', { count: lecture.noOfViews })}
            {video?.status === 'processing' && video.playable && (
              <span className="ms-2 text-indigo-700">· {processingForStudents(video.etaSeconds)}</span>
            )}
          </p>
        </div>
        <button
          type="button"
          className={`btn ${lecture.likedByMe ? 'bg-rose-50 text-rose-700 ring-1 ring-rose-200 hover:bg-rose-100' : 'btn-secondary'}`}
          aria-pressed={lecture.likedByMe}
          onClick={() => toggleLike.mutate(lecture)}
          disabled={toggleLike.isPending}
        >
          <HeartIcon size={18} fill={lecture.likedByMe ? 'currentColor' : 'none'} />
          {/* Screen readers hear the action with the count ("Like (3 likes)"); the eye sees the count. */}
          <span aria-hidden="true">{lecture.noOfLikes}</span>
          <span className="sr-only">
            {t(lecture.likedByMe ? 'lectures.stage.unlike' : 'lectures.stage.like', { count: lecture.noOfLikes })}
          </span>
        </button>
      </div>
      <LectureDescription key={lecture._id} description={lecture.description} />
    </div>
  );
}

/**
 * In place of the player when the address names a lecture the class no longer has (deleted, an old link): it says
 * so, and offers the lecture the student would continue with; the Course Playlist stays beside or below it.
 */
export function RemovedLecture({ next, onWatch }: { next: Lecture | null; onWatch: (lecture: Lecture) => void }) {
  return (
    <section
      aria-labelledby="removed-lecture-title"
      className="flex aspect-video flex-col items-center justify-center gap-3 rounded-2xl bg-slate-900 p-6 text-center text-slate-200"
      data-testid="lecture-removed"
    >
      <h2 id="removed-lecture-title" className="font-medium text-white">
        {t('lectures.removed.title')}
      </h2>
      <p className="max-w-sm text-sm text-slate-300">{t('lectures.removed.body')}</p>
      {next && (
        <button type="button" className="btn btn-primary max-w-full" onClick={() => onWatch(next)}>
          <span className="truncate">
            {rich(t('lectures.removed.watch', { name: next.nameOfTopic }), [
              (name) => (
                <span key="name" translate="no">
                  {name}
                </span>
              ),
            ])}
          </span>
        </button>
      )}
    </section>
  );
}
