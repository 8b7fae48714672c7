import { useEffect, useRef, useState } from 'react';
import { LIMITS } from '../../../../../src/contract/limits';
import { errorMessage } from '../../../api/query-client';
import { toast } from '../../../lib/toast';
import { QueryState } from '../../../ui/QueryState';
import { saveNotesOnLeave, useNotes, useSaveNotes } from '../../classes/api/courses';

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

/** Notes save themselves this long after typing stops (the spec's Save Notes button stays). */
const AUTOSAVE_MS = 1500;

function NotesEditor({ courseId, saved }: { courseId: string; saved: string }) {
  const [notes, setNotes] = useState(saved);
  const [lastSaved, setLastSaved] = useState(saved);
  const [autoError, setAutoError] = useState('');
  const [savedHere, setSavedHere] = useState(false);
  const save = useSaveNotes(courseId);
  const latest = useRef({ notes, lastSaved });
  latest.current = { notes, lastSaved };
  const dirty = notes !== lastSaved;

  const onSave = () =>
    save.mutate(notes, {
      onSuccess: () => {
        setLastSaved(notes);
        setSavedHere(true);
        setAutoError('');
        toast.success('Note saved successfully');
      },
      onError: (error) => toast.error('Error saving note', { description: errorMessage(error) }),
    });

  // A moment after typing stops, save quietly.
  useEffect(() => {
    if (notes === lastSaved) return;
    const timer = setTimeout(() => {
      const sending = notes;
      save.mutate(sending, {
        onSuccess: () => {
          setLastSaved(sending);
          setSavedHere(true);
          setAutoError('');
        },
        onError: (error) => setAutoError(errorMessage(error)),
      });
    }, AUTOSAVE_MS);
    return () => clearTimeout(timer);
  }, [notes, lastSaved, save.mutate]);

  // Leaving with unsaved notes: the browser asks first, and a last save goes out as the page closes or as the
  // student moves on inside the app.
  useEffect(() => {
    const warn = (event: BeforeUnloadEvent) => {
      if (latest.current.notes === latest.current.lastSaved) return;
      event.preventDefault();
      event.returnValue = '';
    };
    const onHide = () => {
      if (latest.current.notes !== latest.current.lastSaved) void saveNotesOnLeave(courseId, latest.current.notes);
    };
    window.addEventListener('beforeunload', warn);
    window.addEventListener('pagehide', onHide);
    return () => {
      window.removeEventListener('beforeunload', warn);
      window.removeEventListener('pagehide', onHide);
      onHide();
    };
  }, [courseId]);

  const status = autoError
    ? `Not saved: ${autoError}`
    : save.isPending
      ? 'Saving…'
      : dirty
        ? 'Unsaved changes'
        : savedHere
          ? 'Saved. Only you can see these'
          : 'Only you can see these';
  return (
    <>
      <span className={`-mt-2 text-xs ${autoError ? 'text-red-700' : 'text-slate-500'}`} role="status">
        {status}
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
