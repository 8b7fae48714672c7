import { BookIcon } from '../components/icons';
import { useSession } from '../state/session';

export function ClassroomPage() {
  const { user } = useSession();
  return (
    <section>
      <h1 className="page-title">Your classes</h1>
      <div className="empty-state mt-6">
        <BookIcon size={40} className="text-indigo-400" />
        <p className="mt-3 font-medium text-slate-800">No classes yet</p>
        <p className="mt-1 text-sm text-slate-600">
          {user?.role === 'teacher'
            ? 'Create your first class to get started.'
            : 'Join a class with the code your teacher gives you.'}
        </p>
      </div>
    </section>
  );
}
