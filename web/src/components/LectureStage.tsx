import { type Lecture, useCountView, useSaveProgress, useToggleLike } from '../api/lectures';
import { formatEta } from '../lib/format';
import { EyeIcon, HeartIcon, PlayIcon } from './icons';
import { VideoPlayer } from './VideoPlayer';

/** The player (or the lecture's processing state) with its name, view count and likes button. */
export function LectureStage({ lecture }: { lecture: Lecture | null }) {
  const toggleLike = useToggleLike();
  const countView = useCountView();
  const saveProgress = useSaveProgress();
  if (!lecture) {
    return (
      <div className="card flex aspect-video flex-col items-center justify-center gap-3 bg-slate-900 p-6 text-center text-slate-200">
        <PlayIcon size={36} className="text-slate-400" />
        <p className="font-medium">No lectures yet</p>
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
      {lecture.videoLink && video?.playable ? (
        <VideoPlayer
          key={lecture.videoLink}
          src={lecture.videoLink}
          poster={video.posterUrl}
          durationHint={video.durationSeconds}
          width={video.width}
          height={video.height}
          startAt={resumeAt}
          onEnded={() => countView.mutate(lecture._id)}
          onPosition={(position, duration) => saveProgress.mutate({ id: lecture._id, position, duration })}
        />
      ) : (
        <div className="flex aspect-video flex-col items-center justify-center gap-3 rounded-2xl bg-slate-900 p-6 text-center text-slate-200">
          {!video ? (
            <p className="font-medium">This topic has no video.</p>
          ) : video.status === 'failed' ? (
            <>
              <p className="font-medium">This video could not be processed.</p>
              <p className="max-w-sm text-sm text-slate-400">{video.error}</p>
            </>
          ) : (
            <>
              <p className="font-medium">Preparing this lecture…</p>
              <div className="h-2 w-56 max-w-full overflow-hidden rounded-full bg-slate-700">
                <div className="h-full bg-indigo-500 transition-[width]" style={{ width: `${video.progress}%` }} />
              </div>
              <p className="text-sm text-slate-400">
                {video.status === 'queued'
                  ? 'Waiting to start'
                  : `${Math.floor(video.progress)}%${video.etaSeconds !== null ? ` · ${formatEta(video.etaSeconds)}` : ''}`}
                . It will play here as soon as the first part is ready.
              </p>
            </>
          )}
        </div>
      )}
      {resumeAt > 0 && video?.playable && <p className="text-xs text-slate-500">Resuming where you stopped.</p>}
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 className="text-lg font-semibold break-words text-slate-900">{lecture.nameOfTopic}</h2>
          <p className="mt-0.5 flex items-center gap-1 text-sm text-slate-600">
            <EyeIcon size={16} /> {lecture.noOfViews} {lecture.noOfViews === 1 ? 'view' : 'views'}
            {video?.status === 'processing' && video.playable && (
              <span className="ml-2 text-indigo-700">· still processing, {Math.floor(video.progress)}%</span>
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
            {lecture.likedByMe ? 'Unlike' : 'Like'} ({lecture.noOfLikes} likes)
          </span>
        </button>
      </div>
    </div>
  );
}
