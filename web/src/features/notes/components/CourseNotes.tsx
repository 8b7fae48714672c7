import { ApiError } from '@api/client';
import { errorMessage, queryClient } from '@api/query-client';
import { courseKeys } from '@api/query-keys';
import type { NotesJson } from '@contract/courses';
import { fieldProblems, loadSchemas } from '@lib/form-check';
import { t } from '@lib/i18n';
import { useOnline } from '@lib/online';
import { toast } from '@lib/toast';
import { Field } from '@ui/Field';
import { QueryState } from '@ui/QueryState';
import { useAtomValue } from 'jotai';
import { useEffect, useRef, useState } from 'react';
import { saveNotesOnLeave, useNotes, useSaveNotes } from '../api/notes';
import { queuedNotesAtom, queuedNotesOf, queueNotes } from '../state/notes-queue';

/** The user's private notes for a class. The editor appears only once the saved notes have loaded. */
export function CourseNotes({ courseId }: { courseId: string }) {
  const query = useNotes(courseId);
  return (
    <section id="notes" aria-labelledby="notes-title" className="card flex flex-col gap-3 p-4 sm:p-5">
      <h2 id="notes-title" className="font-semibold text-slate-900">
        {t('notes.title')}
      </h2>
      <QueryState query={query} label={t('notes.what')} compact>
        {(saved) => <NotesEditor key={courseId} courseId={courseId} saved={saved} />}
      </QueryState>
    </section>
  );
}

/** The enrollment routes' request schemas: the notes are checked by the server's own rule before they are sent. */
const contract = () => loadSchemas(() => import('@contract/courses'));

/** Notes save themselves this long after typing stops (the spec's Save Notes button stays). */
const AUTOSAVE_MS = 1500;

/** The server could not be reached: the notes wait on this device (docs/offline.md). */
const unreachable = (error: unknown) => error instanceof ApiError && error.status === 0;

function NotesEditor({ courseId, saved }: { courseId: string; saved: NotesJson }) {
  // Notes written offline and not sent yet are what this person last wrote: they win over the loaded copy.
  const [notes, setNotes] = useState(() => queuedNotesOf(courseId)?.text ?? saved.notes);
  const [lastSaved, setLastSaved] = useState(saved.notes);
  const [autoError, setAutoError] = useState('');
  const [savedHere, setSavedHere] = useState(false);
  /** What the contract finds wrong with the notes, in the server's words: said under them, and nothing is sent. */
  const [problem, setProblem] = useState('');
  /** The last text checked and what was found, for the save made as the page closes (which cannot wait). */
  const checked = useRef({ text: saved.notes, problem: '' });
  const save = useSaveNotes(courseId);
  /** When the server's notes were last changed, as loaded: an offline text started from there (notes-queue.ts). */
  const base = useRef(saved.updatedAt);
  const queued = useAtomValue(queuedNotesAtom)[courseId];
  const online = useOnline();
  const onDevice = queued !== undefined && notes === queued.text;
  const latest = useRef({ notes, lastSaved, onDevice });
  latest.current = { notes, lastSaved, onDevice };
  const dirty = notes !== lastSaved && !onDevice;

  // The queued notes reached the server (the connection came back): what it now holds is the saved text.
  const wasQueued = useRef(queued);
  useEffect(() => {
    const before = wasQueued.current;
    wasQueued.current = queued;
    if (!before || queued) return;
    const server = queryClient.getQueryData<NotesJson>(courseKeys.notes(courseId));
    if (!server) return;
    setLastSaved(server.notes);
    setNotes((current) => (current === before.text ? server.notes : current));
    setSavedHere(true);
  }, [queued, courseId]);

  /** Keeps the text on this device when the server cannot be reached; true when it did. */
  const keepOnDevice = (text: string, error?: unknown) => {
    if (error !== undefined && !unreachable(error)) return false;
    if (!queueNotes(courseId, text, base.current)) return false;
    setAutoError('');
    return true;
  };

  /** Checks the text with the contract (a paste may go past the limit: it is kept whole and said in words). */
  const check = async (text: string) => {
    let found = '';
    try {
      found = (await fieldProblems((await contract()).notesBody, { notes: text })).notes ?? '';
    } catch {
      // The check's code could not load (offline before it was ever needed): the server checks when they are sent.
    }
    checked.current = { text, problem: found };
    setProblem(found);
    return found;
  };

  const onSave = async () => {
    if (await check(notes)) return;
    if (!navigator.onLine && keepOnDevice(notes)) {
      toast.info(t('notes.savedOnDevice'), { description: t('notes.willSync') });
      return;
    }
    save.mutate(notes, {
      onSuccess: () => {
        setLastSaved(notes);
        setSavedHere(true);
        setAutoError('');
        toast.success(t('notes.saved'));
      },
      onError: (error) => {
        if (keepOnDevice(notes, error)) {
          toast.info(t('notes.savedOnDevice'), { description: t('notes.willSync') });
        } else toast.error(t('notes.saveError'), { description: errorMessage(error) });
      },
    });
  };

  // A moment after typing stops, save quietly (offline: on this device, sent when the connection returns).
  // biome-ignore lint/correctness/useExhaustiveDependencies: keepOnDevice and check read only the course and its base
  useEffect(() => {
    if (notes === lastSaved || onDevice) return;
    let stale = false;
    const timer = setTimeout(async () => {
      const sending = notes;
      if ((await check(sending)) || stale) return;
      if (!navigator.onLine && keepOnDevice(sending)) return;
      save.mutate(sending, {
        onSuccess: () => {
          setLastSaved(sending);
          setSavedHere(true);
          setAutoError('');
        },
        onError: (error) => {
          if (!keepOnDevice(sending, error)) setAutoError(errorMessage(error));
        },
      });
    }, AUTOSAVE_MS);
    return () => {
      stale = true;
      clearTimeout(timer);
    };
  }, [notes, lastSaved, onDevice, save.mutate]);

  // Leaving with unsaved notes: the browser asks first, and a last save goes out as the page closes or as the
  // student moves on inside the app.
  useEffect(() => {
    const warn = (event: BeforeUnloadEvent) => {
      if (latest.current.notes === latest.current.lastSaved || latest.current.onDevice) return;
      event.preventDefault();
      event.returnValue = '';
    };
    const onHide = () => {
      const { notes: text, lastSaved: last, onDevice: kept } = latest.current;
      if (text === last || kept || (checked.current.text === text && checked.current.problem)) return;
      // Offline, a last request would be lost: the text waits on this device instead.
      if (!navigator.onLine) queueNotes(courseId, text, base.current);
      else void saveNotesOnLeave(courseId, text);
    };
    window.addEventListener('beforeunload', warn);
    window.addEventListener('pagehide', onHide);
    return () => {
      window.removeEventListener('beforeunload', warn);
      window.removeEventListener('pagehide', onHide);
      onHide();
    };
  }, [courseId]);

  const status = problem
    ? t('notes.notSaved')
    : autoError
      ? t('notes.notSavedBecause', { reason: autoError })
      : t(
          onDevice
            ? 'notes.onDevice'
            : save.isPending
              ? 'notes.autoSaving'
              : dirty
                ? online
                  ? 'notes.unsaved'
                  : 'notes.offline'
                : savedHere
                  ? 'notes.savedPrivate'
                  : 'notes.private',
        );
  return (
    <>
      <span className={`-mt-2 text-xs ${autoError || problem ? 'text-red-700' : 'text-slate-500'}`} role="status">
        {status}
      </span>
      <Field label={t('notes.label')} labelClassName="sr-only" id={`notes-${courseId}`} problem={problem}>
        {(wiring) => (
          <textarea
            {...wiring}
            className="textarea min-h-40 aria-invalid:border-red-500"
            placeholder={t('notes.placeholder')}
            value={notes}
            onChange={(event) => setNotes(event.target.value)}
            onFocus={() => void contract()}
          />
        )}
      </Field>
      <button type="button" className="btn btn-primary self-end" onClick={onSave} disabled={save.isPending}>
        {t(save.isPending ? 'common.saving' : 'notes.save')}
      </button>
    </>
  );
}
