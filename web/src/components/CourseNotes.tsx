import { useState } from 'react';
import { LIMITS } from '../../../src/contract/limits';
import { useNotes, useSaveNotes } from '../api/courses';
import { errorMessage } from '../api/query-client';
import { toast } from '../lib/toast';
import { QueryState } from './QueryState';

/** The user's private notes for a class. The editor appears only once the saved notes have loaded. */
export function CourseNotes({ courseId }: { courseId: string }) {
  const query = useNotes(courseId);
  return (
    <section id="notes" aria-labelledby="notes-title" className="card flex flex-col gap-3 p-4 sm:p-5">
      <h2 id="notes-title" className="font-semibold text-slate-900">
        Course Notes
      </h2>
      <QueryState query={query} label="your notes" compact>
        {(saved) => <NotesEditor key={courseId} courseId={courseId} saved={saved.notes} />}
      </QueryState>
    </section>
  );
}

function NotesEditor({ courseId, saved }: { courseId: string; saved: string }) {
  const [notes, setNotes] = useState(saved);
  const save = useSaveNotes(courseId);
  const onSave = () =>
    save.mutate(notes, {
      onSuccess: () => toast.success('Note saved successfully'),
      onError: (error) => toast.error('Error saving note', { description: errorMessage(error) }),
    });
  return (
    <>
      <span className="-mt-2 text-xs text-slate-500">
        {notes === saved ? 'Only you can see these' : 'Unsaved changes'}
      </span>
      <textarea
        aria-label="Course notes"
        className="textarea min-h-40"
        placeholder="Take notes for this course..."
        value={notes}
        maxLength={LIMITS.notesMax}
        onChange={(event) => setNotes(event.target.value)}
      />
      <button type="button" className="btn btn-primary self-end" onClick={onSave} disabled={save.isPending}>
        {save.isPending ? 'Saving...' : 'Save Notes'}
      </button>
    </>
  );
}
