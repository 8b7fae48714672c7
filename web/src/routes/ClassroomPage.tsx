import { useSession } from '@lib/session';
import { toast } from '@lib/toast';
import { usePageTitle } from '@lib/use-page-title';
import { BookIcon, LogInIcon, PlusIcon } from '@ui/icons';
import { QueryState } from '@ui/QueryState';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { type Course, useCourses, useDeleteCourse, useRenameCourse } from '../features/classes/api/courses';
import { ClassCard } from '../features/classes/components/ClassCard';
import { CreateClassModal } from '../features/classes/components/CreateClassModal';
import { JoinClassModal } from '../features/classes/components/JoinClassModal';

export function ClassroomPage() {
  const { user } = useSession();
  const isTeacher = user?.role === 'teacher';
  const mayTeach = isTeacher && user?.teacherStatus === 'approved';
  const query = useCourses();
  usePageTitle('Your classes');
  const rename = useRenameCourse();
  const remove = useDeleteCourse();
  const [createOpen, setCreateOpen] = useState(false);
  // `?join` (a dead invite's "Enter a class code") opens the join form at once.
  const [search, setSearch] = useSearchParams();
  const [joinOpen, setJoinOpen] = useState(() => search.has('join'));

  // Both throw on failure, so the card stays open with what the user typed (the toast says why).
  const onRename = async (course: Course, courseName: string) => {
    await rename.mutateAsync({ id: course._id, courseName });
    toast.success(`Renamed to ${courseName}`);
  };
  const onDelete = async (course: Course) => {
    await remove.mutateAsync(course._id);
    toast.success(`Deleted ${course.courseName}`);
  };

  return (
    <section>
      <div className="flex items-center justify-between gap-4">
        <h1 className="page-title">Your classes</h1>
        {isTeacher ? (
          <button type="button" className="btn btn-primary" onClick={() => setCreateOpen(true)} disabled={!mayTeach}>
            <PlusIcon size={18} /> Create class
          </button>
        ) : (
          <button type="button" className="btn btn-primary" onClick={() => setJoinOpen(true)}>
            <LogInIcon size={18} /> Join class
          </button>
        )}
      </div>

      {isTeacher && !mayTeach && (
        <p role="status" className="mt-4 rounded-xl border border-amber-200 bg-amber-50 p-4 text-sm text-amber-900">
          {user?.teacherStatus === 'declined'
            ? 'Your request to teach was declined. Please ask your administrator.'
            : "Your teacher account is waiting for the administrator's approval. You can create classes once it is approved."}
        </p>
      )}
      <div className="mt-6">
        <QueryState
          query={query}
          label="your classes"
          empty={
            <div className="empty-state">
              <BookIcon size={40} className="text-indigo-400" />
              <p className="mt-3 font-medium text-slate-800">No classes yet</p>
              <p className="mt-1 max-w-sm text-sm text-slate-600">
                {isTeacher
                  ? 'Create your first class, then share its link or QR code with your students.'
                  : 'Join a class with the code your teacher gives you, or scan the QR code in class.'}
              </p>
              <button
                type="button"
                className="btn btn-primary mt-5"
                onClick={() => (isTeacher ? setCreateOpen(true) : setJoinOpen(true))}
                disabled={isTeacher && !mayTeach}
              >
                {isTeacher ? 'Create a class' : 'Join a class'}
              </button>
            </div>
          }
        >
          {(courses) => (
            // The spec's grid: one column on phones, two on tablets, four on large screens (from 1280 px, where four
            // cards beside the open navigation are still 230 px wide).
            <div data-testid="class-grid" className="grid grid-cols-1 gap-4 md:grid-cols-2 xl:grid-cols-4">
              {courses.map((course, index) => (
                <ClassCard
                  key={course._id}
                  course={course}
                  index={index}
                  isTeacher={isTeacher}
                  onRename={onRename}
                  onDelete={onDelete}
                />
              ))}
            </div>
          )}
        </QueryState>
      </div>

      {isTeacher && <CreateClassModal open={createOpen} onClose={() => setCreateOpen(false)} />}
      {!isTeacher && (
        <JoinClassModal
          open={joinOpen}
          onClose={() => {
            setJoinOpen(false);
            if (search.has('join')) setSearch({}, { replace: true });
          }}
        />
      )}
    </section>
  );
}
