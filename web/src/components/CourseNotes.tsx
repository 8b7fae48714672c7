import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import { getNotes, saveNotes } from '../api/courses';

const MAX_NOTES_LENGTH = 100_000;

export function CourseNotes({ courseId }: { courseId: string }) {
  const [notes, setNotes] = useState('');
  const [saved, setSaved] = useState('');
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    getNotes(courseId)
      .then(({ notes }) => {
        setNotes(notes);
        setSaved(notes);
      })
      .catch((error) => console.error('Could not load notes', error));
  }, [courseId]);

  async function onSave() {
    setBusy(true);
    try {
      await saveNotes(courseId, notes);
      setSaved(notes);
      toast.success('Note saved successfully');
    } catch {
      toast.error('Error saving note');
    } finally {
      setBusy(false);
    }
  }

  return (
    <section id="notes" aria-labelledby="notes-title" className="card flex flex-col gap-3 p-4 sm:p-5">
      <div className="flex items-center justify-between">
        <h2 id="notes-title" className="font-semibold text-slate-900">
          Course Notes
        </h2>
        <span className="text-xs text-slate-500">{notes === saved ? 'Only you can see these' : 'Unsaved changes'}</span>
      </div>
      <textarea
        aria-label="Course notes"
        className="textarea min-h-40"
        placeholder="Take notes for this course..."
        value={notes}
        maxLength={MAX_NOTES_LENGTH}
        onChange={(event) => setNotes(event.target.value)}
      />
      <button type="button" className="btn btn-primary self-end" onClick={onSave} disabled={busy}>
        {busy ? 'Saving...' : 'Save Notes'}
      </button>
    </section>
  );
}
