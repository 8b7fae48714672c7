import { useState } from 'react';
import { LoadError } from '../../../ui/QueryState';
import { useCourseProgress } from '../../lectures/api/lectures';

/** For the teacher: per lecture, how many enrolled students started and finished it, and each one's share watched. */
export function TeacherProgress({ courseId }: { courseId: string }) {
  const query = useCourseProgress(courseId);
  const [open, setOpen] = useState<string | null>(null);
  if (!query.data && query.isError) {
    return <LoadError label="student progress" query={query} />;
  }
  const data = query.data;
  if (!data || data.lectures.length === 0) return null;
  const nameOf = new Map(data.students.map((s) => [s._id, s.username]));
  return (
    <section aria-labelledby="progress-title" className="card overflow-hidden">
      <h2 id="progress-title" className="border-b border-slate-100 px-4 py-3 font-semibold text-slate-900">
        Student progress <span className="font-normal text-slate-500">({data.students.length} enrolled)</span>
      </h2>
      <div className="overflow-x-auto">
        <table className="w-full text-sm">
          <thead className="bg-slate-50 text-left text-xs text-slate-500 uppercase">
            <tr>
              <th className="px-4 py-2 font-medium">Lecture</th>
              <th className="px-4 py-2 font-medium">Started</th>
              <th className="px-4 py-2 font-medium">Finished</th>
            </tr>
          </thead>
          <tbody>
            {data.lectures.map((lecture) => (
              <tr key={lecture._id} className="border-t border-slate-100 align-top">
                <td className="px-4 py-2">
                  <button
                    type="button"
                    className="text-left font-medium text-slate-900 hover:text-indigo-700"
                    aria-expanded={open === lecture._id}
                    onClick={() => setOpen((id) => (id === lecture._id ? null : lecture._id))}
                  >
                    {lecture.nameOfTopic}
                  </button>
                  {open === lecture._id && (
                    <ul className="mt-2 flex flex-col gap-1">
                      {lecture.watchers.length === 0 && <li className="text-slate-500">Nobody yet.</li>}
                      {lecture.watchers.map((watcher) => (
                        <li key={watcher.studentId} className="flex items-center gap-2">
                          <span className="w-32 truncate text-slate-700">{nameOf.get(watcher.studentId)}</span>
                          <span className="h-1.5 w-24 overflow-hidden rounded-full bg-slate-200">
                            <span
                              className="block h-full bg-emerald-500"
                              style={{ width: `${watcher.watchedPercent}%` }}
                            />
                          </span>
                          <span className="text-xs text-slate-500">
                            {watcher.completed ? 'finished' : `${watcher.watchedPercent}%`}
                          </span>
                        </li>
                      ))}
                    </ul>
                  )}
                </td>
                <td className="px-4 py-2 whitespace-nowrap text-slate-700">
                  {lecture.started} / {lecture.enrolled}
                </td>
                <td className="px-4 py-2 whitespace-nowrap text-slate-700">
                  {lecture.finished} / {lecture.enrolled}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
