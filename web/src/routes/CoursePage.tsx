import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { teacherName } from '../api/courses';
import { CourseNotes } from '../components/CourseNotes';
import { PlayIcon, ShareIcon } from '../components/icons';
import { SharePanel } from '../components/SharePanel';
import { FullPageLoader } from '../components/Spinner';
import { useSession } from '../state/session';
import { useCourse } from '../state/use-course';

export function CoursePage() {
  const { id } = useParams();
  const { user } = useSession();
  const { course, setCourse, error } = useCourse(id);
  const [sharing, setSharing] = useState(false);

  if (error) return <CourseError message={error} />;
  if (!course) return <FullPageLoader />;
  const isTeacher =
    user?.role === 'teacher' &&
    user._id === (typeof course.teacherId === 'string' ? course.teacherId : course.teacherId._id);

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
      <div className="grid gap-6 lg:grid-cols-[1fr_20rem]">
        <div className="flex flex-col gap-6">
          <section className="card flex aspect-video flex-col items-center justify-center gap-3 bg-slate-900 p-6 text-center text-slate-200">
            <PlayIcon size={36} className="text-slate-400" />
            <p className="font-medium">No lectures yet</p>
            <p className="max-w-sm text-sm text-slate-400">
              {isTeacher ? 'Lectures you add will play here.' : 'Lectures your teacher adds will play here.'}
            </p>
          </section>
        </div>
        <CourseNotes courseId={course._id} />
      </div>
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
