import { useCallback, useEffect, useMemo, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { teacherName } from '../api/courses';
import { deleteLecture, isProcessing, type Lecture, listLectures } from '../api/lectures';
import { Comments } from '../components/Comments';
import { CourseNotes } from '../components/CourseNotes';
import { ShareIcon } from '../components/icons';
import { LectureStage } from '../components/LectureStage';
import { Playlist } from '../components/Playlist';
import { SharePanel } from '../components/SharePanel';
import { FullPageLoader } from '../components/Spinner';
import { TeacherProgress } from '../components/TeacherProgress';
import { AddTopicModal, DeleteTopicDialog, EditTopicModal } from '../components/TopicModals';
import { useSession } from '../state/session';
import { useCourse } from '../state/use-course';

const POLL_MS = 2000;

export function CoursePage() {
  const { id } = useParams();
  const [params, setParams] = useSearchParams();
  const { user } = useSession();
  const { course, setCourse, error } = useCourse(id);
  const [sharing, setSharing] = useState(false);
  const [lectures, setLectures] = useState<Lecture[] | null>(null);
  const [selectedId, setSelectedId] = useState<string | null>(params.get('lecture'));
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<Lecture | null>(null);
  const [deleting, setDeleting] = useState<Lecture | null>(null);
  const [refreshKey, setRefreshKey] = useState(0);

  const refresh = useCallback(async () => {
    if (!id) return;
    try {
      setLectures(await listLectures(id));
    } catch (failure) {
      console.error('Could not load lectures', failure);
      setLectures((list) => list ?? []);
    }
  }, [id]);

  useEffect(() => {
    refresh();
  }, [refresh]);

  // While a video is processing, keep its progress fresh.
  const anyProcessing = lectures?.some(isProcessing) ?? false;
  useEffect(() => {
    if (!anyProcessing) return;
    const timer = setInterval(refresh, POLL_MS);
    return () => clearInterval(timer);
  }, [anyProcessing, refresh]);

  // A card's notes button links to #notes: scroll there once the page has loaded.
  const loaded = course !== null && lectures !== null;
  useEffect(() => {
    if (loaded && window.location.hash === '#notes')
      document.getElementById('notes')?.scrollIntoView({ behavior: 'smooth' });
  }, [loaded]);

  // The selected lecture, else the newest one.
  const selected = useMemo(() => {
    if (!lectures || lectures.length === 0) return null;
    return lectures.find((lecture) => lecture._id === selectedId) ?? lectures[lectures.length - 1];
  }, [lectures, selectedId]);

  if (error) return <CourseError message={error} />;
  if (!course || !lectures) return <FullPageLoader />;
  const teacherId = typeof course.teacherId === 'string' ? course.teacherId : course.teacherId._id;
  const isTeacher = user?._id === teacherId;

  const replaceLecture = (next: Lecture) =>
    setLectures((list) => list?.map((l) => (l._id === next._id ? next : l)) ?? null);

  const select = (lecture: Lecture) => {
    setSelectedId(lecture._id);
    setParams({ lecture: lecture._id }, { replace: true });
    // The spec's playlist bumps the view count locally on selection.
    replaceLecture({ ...lecture, noOfViews: lecture.noOfViews + 1 });
  };

  async function onDeleteLecture(lecture: Lecture) {
    try {
      const answer = await deleteLecture(lecture._id);
      if (answer.message === 'Lecture deleted') {
        setLectures((list) => list?.filter((l) => l._id !== lecture._id) ?? null);
        if (selectedId === lecture._id) setSelectedId(null);
        setRefreshKey((n) => n + 1);
      }
    } catch (failure) {
      console.error('Could not delete the lecture', failure);
    } finally {
      setDeleting(null);
    }
  }

  return (
    <div className="flex flex-col gap-6">
      <header className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h1 className="page-title break-words">{course.courseName}</h1>
          <p className="mt-1 text-sm text-slate-600">
            {teacherName(course)}
            {course.semester ? ` · Semester ${course.semester}` : ''}
          </p>
        </div>
        {isTeacher && (
          <button
            type="button"
            className="btn btn-secondary"
            onClick={() => setSharing((open) => !open)}
            aria-expanded={sharing}
          >
            <ShareIcon size={18} /> {sharing ? 'Hide Share' : 'Share Classroom'}
          </button>
        )}
      </header>
      {isTeacher && sharing && <SharePanel course={course} onCodeChanged={setCourse} />}
      <div className="grid min-w-0 gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <div className="flex min-w-0 flex-col gap-6">
          <LectureStage lecture={selected} onLectureChange={replaceLecture} />
          {selected && <Comments lectureId={selected._id} isTeacher={isTeacher} />}
        </div>
        <div className="flex min-w-0 flex-col gap-6">
          <Playlist
            lectures={lectures}
            selectedId={selected?._id ?? null}
            isTeacher={isTeacher}
            onSelect={select}
            onAdd={() => setAdding(true)}
            onEdit={setEditing}
            onDelete={setDeleting}
            onChanged={refresh}
          />
          <CourseNotes courseId={course._id} />
        </div>
      </div>
      {isTeacher && <TeacherProgress courseId={course._id} refreshKey={refreshKey} />}
      {isTeacher && (
        <>
          <AddTopicModal
            courseId={course._id}
            open={adding}
            onClose={() => setAdding(false)}
            onAdded={(lecture) => {
              setLectures((list) => [...(list ?? []), lecture]);
              setSelectedId(lecture._id);
              setRefreshKey((n) => n + 1);
            }}
          />
          <EditTopicModal lecture={editing} onClose={() => setEditing(null)} onSaved={replaceLecture} />
          <DeleteTopicDialog lecture={deleting} onClose={() => setDeleting(null)} onConfirm={onDeleteLecture} />
        </>
      )}
    </div>
  );
}

export function CourseError({ message }: { message: string }) {
  return (
    <div className="empty-state">
      <p className="font-medium text-slate-800">{message}</p>
      <p className="mt-1 text-sm text-slate-600">It may have been deleted, or you are not in this class.</p>
      <Link to="/classroom" className="btn btn-primary mt-5">
        Back to your classes
      </Link>
    </div>
  );
}
