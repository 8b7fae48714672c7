import { t } from '@lib/i18n';
import { useAtomValue } from 'jotai';
import { useEffect, useRef, useState } from 'react';
import type { Limits } from '../state/limits';
import { openRecordingAtom, storedRecordingsVersionAtom } from '../state/open-recording';
import { recordingStore, type StoredRecording } from '../state/recording-store';
import { RecorderDialog } from './RecorderDialog';

/**
 * "Finish uploading your recording": a recording of this teacher that a closed page, a crash or "later" left in
 * this browser (only theirs: the store is read by their user id). It resumes the upload and opens the review.
 */
export function RecordingRecovery({
  userId,
  limits,
  onSaved,
}: {
  userId: string;
  limits: Limits | undefined;
  onSaved?: (lectureId: string) => void;
}) {
  const [left, setLeft] = useState<StoredRecording[]>([]);
  const [finishing, setFinishing] = useState<StoredRecording | null>(null);
  const open = useAtomValue(openRecordingAtom);
  const version = useAtomValue(storedRecordingsVersionAtom);
  const [readVersion, setReadVersion] = useState(-1);
  const [returnFocus, setReturnFocus] = useState(false);
  const action = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    let gone = false;
    // Read after the version changes (a save, a discard) as well as on arrival.
    void version;
    const store = recordingStore();
    store
      .ofUser(userId)
      .then(async (found) => {
        // A recording that never got a byte (a browser that hands over empty pieces) has nothing to finish; once
        // it is a minute old it is not one just starting in another tab either, and it goes.
        const kept: StoredRecording[] = [];
        for (const recording of found) {
          if ((await store.chunkSizes(recording.id)).some((size) => size > 0)) kept.push(recording);
          else if (Date.now() - recording.startedAt > 60_000) await store.remove(recording.id);
        }
        if (gone) return;
        setLeft(kept.sort((a, b) => a.startedAt - b.startedAt));
        setReadVersion(version);
      })
      .catch(() => {
        // no IndexedDB here: nothing was kept
      });
    return () => {
      gone = true;
    };
  }, [userId, version]);
  // The banner hid while its dialog was open: once the store is read again, focus goes back to it, or to the page.
  useEffect(() => {
    if (!returnFocus || finishing || readVersion !== version) return;
    setReturnFocus(false);
    (action.current ?? document.getElementById('main-content'))?.focus();
  }, [returnFocus, finishing, readVersion, version]);
  const offered = left.filter((recording) => recording.id !== open && recording.id !== finishing?.id);
  const first = offered[0];
  return (
    <>
      {first && (
        <section
          aria-label={t('recording.recovery.label')}
          className="mb-4 flex flex-wrap items-center justify-between gap-3 rounded-xl border border-amber-300 bg-amber-50 p-4"
        >
          <p className="min-w-0 text-sm text-amber-900">
            {t('recording.recovery.text', { count: offered.length })}{' '}
            <span className="font-medium" translate="no">
              {first.nameOfTopic}
            </span>
          </p>
          <button ref={action} type="button" className="btn btn-primary" onClick={() => setFinishing(first)}>
            {t('recording.recovery.action')}
          </button>
        </section>
      )}
      {finishing && (
        <RecorderDialog
          key={finishing.id}
          open
          courseId={finishing.courseId}
          nameOfTopic={finishing.nameOfTopic}
          userId={userId}
          limits={limits}
          recovered={finishing}
          onClose={() => {
            setFinishing(null);
            setReturnFocus(true);
          }}
          onSaved={onSaved}
        />
      )}
    </>
  );
}
