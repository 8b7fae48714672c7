import { useCallback, useEffect, useState } from 'react';
import { type Course, deleteCourse, listCourses, renameCourse } from '../api/courses';
import { ClassCard } from '../components/ClassCard';
import { CreateClassModal } from '../components/CreateClassModal';
import { BookIcon, LogInIcon, PlusIcon } from '../components/icons';
import { JoinClassModal } from '../components/JoinClassModal';
import { Spinner } from '../components/Spinner';
import { useSession } from '../state/session';

export function ClassroomPage() {
  const { user } = useSession();
  const isTeacher = user?.role === 'teacher';
  const [courses, setCourses] = useState<Course[] | null>(null);
  const [createOpen, setCreateOpen] = useState(false);
  const [joinOpen, setJoinOpen] = useState(false);

  const refresh = useCallback(async () => {
    try {
      setCourses(await listCourses());
    } catch (error) {
      console.error('Could not load classes', error);
      setCourses((current) => current ?? []);
    }
  }, []);

  useEffect(() => {
    refresh();
  }, [refresh]);

  async function onRename(course: Course, courseName: string) {
    try {
      const updated = await renameCourse(course._id, courseName);
      setCourses(
        (list) => list?.map((c) => (c._id === course._id ? { ...c, courseName: updated.courseName } : c)) ?? null,
      );
    } catch (error) {
      console.error('Could not rename the class', error);
    }
  }

  async function onDelete(course: Course) {
    try {
      await deleteCourse(course._id);
      setCourses((list) => list?.filter((c) => c._id !== course._id) ?? null);
    } catch (error) {
      console.error('Could not delete the class', error);
    }
  }

  return (
    <section>
      <div className="flex items-center justify-between gap-4">
        <h1 className="page-title">Your classes</h1>
        {isTeacher ? (
          <button type="button" className="btn btn-primary" onClick={() => setCreateOpen(true)}>
            <PlusIcon size={18} /> Create class
          </button>
        ) : (
          <button type="button" className="btn btn-primary" onClick={() => setJoinOpen(true)}>
            <LogInIcon size={18} /> Join class
          </button>
        )}
      </div>

      {courses === null ? (
        <div className="flex justify-center py-20">
          <Spinner label="Loading classes" />
        </div>
      ) : courses.length === 0 ? (
        <div className="empty-state mt-6">
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
          >
            {isTeacher ? 'Create a class' : 'Join a class'}
          </button>
        </div>
      ) : (
        <div className="mt-6 grid grid-cols-1 gap-4 md:grid-cols-2 lg:grid-cols-4">
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

      {isTeacher && <CreateClassModal open={createOpen} onClose={() => setCreateOpen(false)} onCreated={refresh} />}
      {!isTeacher && <JoinClassModal open={joinOpen} onClose={() => setJoinOpen(false)} onJoined={refresh} />}
    </section>
  );
}
