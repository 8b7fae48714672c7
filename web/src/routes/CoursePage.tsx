import { ApiError } from '@api/client';
import { errorMessage, queryClient } from '@api/query-client';
import { teacherIdOf, teacherName } from '@lib/course-teacher';
import { t } from '@lib/i18n';
import { seekRequestAtom } from '@lib/playback';
import { useSession } from '@lib/session';
import { toast } from '@lib/toast';
import { usePageTitle } from '@lib/use-page-title';
import type { UseQueryResult } from '@tanstack/react-query';
import { ShareIcon } from '@ui/icons';
import { LoadError } from '@ui/QueryState';
import { FullPageLoader } from '@ui/Spinner';
import { useSetAtom } from 'jotai';
import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { ChapterList } from '../features/chapters/components/ChapterList';
import { useAppInfo } from '../features/classes/api/app';
import { courseQuery, useCourse } from '../features/classes/api/courses';
import { WatchingNotice } from '../features/classes/components/WatchingNotice';
import { Comments } from '../features/comments/components/Comments';
import {
  type Lecture,
  lecturesQuery,
  useDeleteLecture,
  useLectures,
  useUpdateCachedLecture,
} from '../features/lectures/api/lectures';
import { LectureStage, RemovedLecture } from '../features/lectures/components/LectureStage';
import { Playlist } from '../features/lectures/components/Playlist';
import { CourseNotes } from '../features/notes/components/CourseNotes';
import { useRecordVisit } from '../features/notifications/api/notifications';
import { OfflineDownload } from '../features/offline/components/OfflineDownload';
import { VideoPlayer } from '../features/player/components/VideoPlayer';
import { useAfterFirstScreen } from '../features/player/hooks/useAfterFirstScreen';
import { useQuestionCues } from '../features/questions/hooks/useQuestionCues';
import { SearchBox } from '../features/search/components/SearchBox';
import { LectureGuide } from '../features/slides/components/LectureGuide';

/**
 * A class opened straight from a link or a reload: its class and lectures are asked for as soon as this code has
 * arrived (router.tsx asks for it at once), beside the sign-in check, not once the shell has rendered the page.
 */
export function prefetchOpenedClass(pathname: string) {
  const openedId = /^\/classroom\/([^/]+)\/?$/.exec(pathname)?.[1];
  if (!openedId) return;
  void queryClient.prefetchQuery(courseQuery(decodeURIComponent(openedId)));
  void queryClient.prefetchQuery(lecturesQuery(decodeURIComponent(openedId)));
}

type Tools = typeof import('./course-teacher-tools');
/** A teacher-only part, loaded with the others on first use (`course-teacher-tools.ts`). */
const teacherTool = <Name extends keyof Tools>(name: Name) =>
  lazy(async () => ({ default: (await import('./course-teacher-tools'))[name] }));
const ClassRoster = teacherTool('ClassRoster');
const SharePanel = teacherTool('SharePanel');
const TeacherProgress = teacherTool('TeacherProgress');
const LmsSection = teacherTool('LmsSection');
const ClassStrip = teacherTool('ClassStrip');
const DeleteTopicDialog = teacherTool('DeleteTopicDialog');
const AddTopicModal = teacherTool('AddTopicModal');
const EditTopicModal = teacherTool('EditTopicModal');
const DownloadsSwitch = teacherTool('DownloadsSwitch');
const QuestionsPanel = teacherTool('QuestionsPanel');
const RecordingRecovery = teacherTool('RecordingRecovery');

export function CoursePage() {
  const { id } = useParams();
  const [params, setParams] = useSearchParams();
  const { user } = useSession();
  const courseQuery = useCourse(id ?? '');
  const lecturesQuery = useLectures(id ?? '');
  const updateCachedLecture = useUpdateCachedLecture();
  const removeLecture = useDeleteLecture();
  const course = courseQuery.data;
  const lectures = lecturesQuery.data;
  // The recorder's limits, for a teacher's "finish uploading your recording" (a student never asks).
  const appInfo = useAppInfo({ enabled: user?.role === 'teacher' }).data;
  const [sharing, setSharing] = useState(false);
  const [selectedId, setSelectedId] = useState<string | null>(params.get('lecture'));
  /** The lecture that "Up next" chose: it starts playing by itself. */
  const [autoPlayId, setAutoPlayId] = useState<string | null>(null);
  const playNext = useCallback(
    (lecture: { _id: string }) => {
      setAutoPlayId(lecture._id);
      setSelectedId(lecture._id);
      // The address follows what plays, so a reload or a shared link opens this lecture, not the one before.
      setParams({ lecture: lecture._id }, { replace: true });
    },
    [setParams],
  );
  const [adding, setAdding] = useState(false);
  // Which topic a dialog is open for; the lecture itself always comes from the cached list.
  const [editingId, setEditing] = useState<string | null>(null);
  const [deletingId, setDeleting] = useState<string | null>(null);

  // A search hit opens `?lecture=…&t=…`: that lecture, at that second (through the player's seek request, as a
  // comment's time does), then the `t` leaves the address so a later selection is not sent back there.
  const jumpLecture = params.get('lecture');
  const jumpSeconds = params.get('t');
  const seek = useSetAtom(seekRequestAtom);
  useEffect(() => {
    if (jumpLecture && jumpSeconds !== null) setSelectedId(jumpLecture);
  }, [jumpLecture, jumpSeconds]);

  const loaded = course !== undefined && lectures !== undefined;
  // The page's first screen shows before the slide index is asked for.
  const shown = useAfterFirstScreen(loaded);
  // The visit is recorded once the class has loaded, not after the first screen: a quick open-and-back clears the dot.
  useRecordVisit(loaded ? id : undefined);
  // A card's notes button links to #notes: scroll there once the page has loaded.
  useEffect(() => {
    if (loaded && window.location.hash === '#notes')
      document.getElementById('notes')?.scrollIntoView({ behavior: 'smooth' });
  }, [loaded]);

  // The selected lecture; else continue watching: the one the student stopped in the middle of, else the first one
  // not finished, else the first.
  const selected = useMemo(() => {
    if (!lectures || lectures.length === 0) return null;
    return (
      lectures.find((lecture) => lecture._id === selectedId) ??
      lectures.find(
        (lecture) => lecture.myProgress && !lecture.myProgress.completed && lecture.myProgress.position > 0,
      ) ??
      lectures.find((lecture) => !lecture.myProgress?.completed) ??
      lectures[0] ??
      null
    );
  }, [lectures, selectedId]);
  // The address names a lecture that is no longer in the class (deleted, an old link): said, not swapped silently.
  const removed =
    lectures !== undefined &&
    selectedId !== null &&
    selectedId === params.get('lecture') &&
    !lectures.some((lecture) => lecture._id === selectedId);
  usePageTitle(course?.courseName, removed ? undefined : selected?.nameOfTopic);
  // A student's questions inside the lecture, asked by the player (never the teacher's or an administrator's).
  const asStudent = !!course && !!user && user._id !== teacherIdOf(course) && !user.isAdmin;
  const cues = useQuestionCues(removed ? null : selected, asStudent);

  // Comments and notes load with the page, not after the first frame: a pupil who goes offline a moment after
  // opening the class still has their notes to write in (and their code is there), which a deferred chunk broke.

  const selectedLectureId = selected?._id;
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the jump's lecture is the one on the stage
  useEffect(() => {
    if (jumpSeconds === null || !jumpLecture || selectedLectureId !== jumpLecture) return;
    const seconds = Number(jumpSeconds);
    if (Number.isFinite(seconds) && seconds >= 0) seek({ seconds, at: Date.now() });
    setParams({ lecture: jumpLecture }, { replace: true });
  }, [jumpLecture, jumpSeconds, selectedLectureId]);

  if (!course && courseQuery.isError) return <CourseLoadError query={courseQuery} />;
  if (!lectures && lecturesQuery.isError) {
    return <LoadError label={t('course.lecturesWhat')} query={lecturesQuery} />;
  }
  if (!course || !lectures) return <FullPageLoader />;
  const isTeacher = user?._id === teacherIdOf(course);
  const editing = lectures.find((lecture) => lecture._id === editingId) ?? null;
  const deleting = lectures.find((lecture) => lecture._id === deletingId) ?? null;

  const select = (lecture: Lecture) => {
    setSelectedId(lecture._id);
    setParams({ lecture: lecture._id }, { replace: true });
    // The spec's playlist bumps the view count locally on selection.
    updateCachedLecture({ ...lecture, noOfViews: lecture.noOfViews + 1 });
  };

  const onDeleteLecture = (lecture: Lecture) =>
    removeLecture.mutateAsync(lecture).then(
      () => {
        if (selectedId === lecture._id) setSelectedId(null);
        if (params.get('lecture') === lecture._id) setParams({}, { replace: true });
        setDeleting(null);
        toast.success(t('course.lectureDeleted', { name: lecture.nameOfTopic }));
      },
      () => setDeleting(null),
    );

  return (
    <div className="flex flex-col gap-6">
      {isTeacher && user && (
        <Suspense fallback={null}>
          <RecordingRecovery userId={user._id} limits={appInfo} onSaved={(lectureId) => setSelectedId(lectureId)} />
        </Suspense>
      )}
      <header className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h1 className="page-title break-words" translate="no">
            {course.courseName}
          </h1>
          <p className="mt-1 text-sm text-slate-600">
            <span translate="no">{teacherName(course)}</span>
            {course.semester ? ` · ${t('classes.semester', { semester: course.semester })}` : ''}
          </p>
        </div>
        <SearchBox
          courseId={course._id}
          label={t('course.searchIn', { name: course.courseName })}
          placeholder={t('course.searchPlaceholder')}
          className="w-full sm:w-72"
        />
        {isTeacher && (
          <button
            type="button"
            className="btn btn-secondary"
            onClick={() => setSharing((open) => !open)}
            aria-expanded={sharing}
          >
            <ShareIcon size={18} /> {t(sharing ? 'course.hideShare' : 'course.share')}
          </button>
        )}
      </header>
      {isTeacher && (
        <Suspense fallback={null}>
          <DownloadsSwitch course={course} />
          {sharing && <SharePanel course={course} />}
        </Suspense>
      )}
      {/*
        Phones: one column in the order a student needs: the player, its chapters and slides, the playlist, notes,
        comments. From 768 px the playlist comes straight under the player's title (at 1024 px it sat 1.5 screens
        down, under the chapters), and from 1280 px the playlist and notes sit beside the player, comments under it.
        (A side column at 1024 px would leave the player 344 px wide.) Below 1280 px the two columns' wrappers are
        `contents`, so their parts are ordered one by one in the page's single column.
      */}
      <div className="grid min-w-0 items-start gap-6 xl:grid-cols-[minmax(0,1fr)_22rem] xl:grid-rows-[auto_1fr]">
        <div className="contents xl:col-start-1 xl:row-start-1 xl:flex xl:min-w-0 xl:flex-col xl:gap-4">
          <div className="min-w-0 md:order-1">
            {removed ? (
              <RemovedLecture next={selected} onWatch={select} />
            ) : (
              <LectureStage
                Player={VideoPlayer}
                key={selected?._id ?? 'none'}
                lecture={selected}
                next={selected && lectures ? (lectures[lectures.indexOf(selected) + 1] ?? null) : null}
                onNext={playNext}
                autoPlay={selected !== null && autoPlayId === selected._id}
                onAddFirst={isTeacher ? () => setAdding(true) : undefined}
                canRetry={isTeacher}
                tracked={!isTeacher && !user?.isAdmin}
                cues={cues}
                seekOverlay={
                  isTeacher && selected ? (
                    <Suspense fallback={null}>
                      <ClassStrip lectureId={selected._id} />
                    </Suspense>
                  ) : undefined
                }
              />
            )}
          </div>
          {selected && !removed && (
            <div className="flex min-w-0 flex-col gap-4 empty:hidden md:order-3">
              <OfflineDownload lecture={selected} course={course} isTeacher={isTeacher} />
              {isTeacher && (
                <Suspense fallback={null}>
                  <QuestionsPanel key={`questions ${selected._id}`} lecture={selected} />
                </Suspense>
              )}
              {/* Its own key: a sibling with the stage's key (the lecture id) makes React keep the old stage beside the new. */}
              {/* With chapters it shows at once, with the page (nothing moves); otherwise only once slides arrive. */}
              {(shown || selected.chapters.length > 0) && (
                <LectureGuide key={`guide ${selected._id}`} lecture={selected} ChapterList={ChapterList} />
              )}
            </div>
          )}
        </div>
        <div className="contents xl:col-start-2 xl:row-span-2 xl:row-start-1 xl:flex xl:min-w-0 xl:flex-col xl:gap-6">
          <div className="min-w-0 md:order-2">
            <Playlist
              lectures={lectures}
              selectedId={removed ? null : (selected?._id ?? null)}
              isTeacher={isTeacher}
              onSelect={select}
              onAdd={() => setAdding(true)}
              onEdit={(lecture) => setEditing(lecture._id)}
              onDelete={(lecture) => setDeleting(lecture._id)}
            />
            {!isTeacher && user && !user.isAdmin && (
              <div className="mt-2 px-1">
                <WatchingNotice courseId={course._id} userId={user._id} />
              </div>
            )}
          </div>
          <div className="min-w-0 md:order-4">
            <CourseNotes courseId={course._id} />
          </div>
        </div>
        {selected && !removed && (
          <div className="min-w-0 md:order-5 xl:col-start-1 xl:row-start-2">
            <Comments lectureId={selected._id} courseId={course._id} isTeacher={isTeacher} />
          </div>
        )}
      </div>
      {isTeacher && (
        <Suspense fallback={null}>
          <ClassRoster courseId={course._id} />
          <TeacherProgress courseId={course._id} />
          <LmsSection courseId={course._id} />
          <AddTopicModal
            courseId={course._id}
            open={adding}
            onClose={() => setAdding(false)}
            onAdded={(lectureId) => setSelectedId(lectureId)}
          />
          <EditTopicModal lecture={editing} onClose={() => setEditing(null)} />
          <DeleteTopicDialog lecture={deleting} onClose={() => setDeleting(null)} onConfirm={onDeleteLecture} />
        </Suspense>
      )}
    </div>
  );
}

/** A class that does not exist for this user (404) gets the way back; any other failure gets Retry. */
export function CourseLoadError({ query }: { query: UseQueryResult<unknown> }) {
  if (query.error instanceof ApiError && query.error.status === 404) {
    return <CourseError message={errorMessage(query.error)} />;
  }
  return <LoadError label={t('course.what')} query={query} />;
}

function CourseError({ message }: { message: string }) {
  return (
    <div className="empty-state">
      <p className="font-medium text-slate-800">{message}</p>
      <p className="mt-1 text-sm text-slate-600">{t('course.goneHint')}</p>
      <Link to="/classroom" className="btn btn-primary mt-5">
        {t('course.back')}
      </Link>
    </div>
  );
}
