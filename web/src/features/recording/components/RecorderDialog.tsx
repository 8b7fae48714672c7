import { errorMessage } from '@api/query-client';
import { t } from '@lib/i18n';
import { toast } from '@lib/toast';
import { Modal } from '@ui/Modal';
import { useSetAtom } from 'jotai';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { deleteRecordedVideo, useSaveRecording } from '../api/recording';
import { useCapture } from '../hooks/useCapture';
import { recordingType, type Source } from '../state/capture';
import { ChunkSource } from '../state/chunk-source';
import { checkLimits, freeRoom, type LimitCheck, type Limits, STOP_ROOM_BYTES } from '../state/limits';
import { openRecordingAtom, storedRecordingsVersionAtom } from '../state/open-recording';
import { RecordingSession } from '../state/recording-session';
import { recordingStore, type StoredRecording } from '../state/recording-store';
import { type RecordingUpload, type UploadState, uploadRecording } from '../state/recording-upload';
import { RecordingStep } from './RecordingStep';
import { ReviewStep, type ReviewValues } from './ReviewStep';
import { SetupStep } from './SetupStep';

type Phase = 'setup' | 'countdown' | 'recording' | 'review';
const COUNTDOWN_SECONDS = 3;
/** Where focus goes when a step replaces the control that had it: the step's marked control, else its first. */
const FIRST_CONTROL = 'button:not([disabled]), input:not([disabled]), select, video[controls]';

/**
 * The recorder: set up, a 3-second countdown, record (every chunk kept in this browser, then uploaded as it
 * arrives), then review: trim, name, Save or Discard. Given `recovered`, it opens on the review of a recording a
 * closed page left in this browser and resumes its upload.
 */
export function RecorderDialog({
  open,
  courseId,
  nameOfTopic,
  userId,
  limits,
  recovered,
  onClose,
  onSaved,
}: {
  open: boolean;
  courseId: string;
  nameOfTopic: string;
  userId: string;
  limits: Limits | undefined;
  recovered?: StoredRecording;
  onClose: () => void;
  onSaved?: (lectureId: string) => void;
}) {
  const [phase, setPhase] = useState<Phase>(recovered ? 'review' : 'setup');
  const [source, setSource] = useState<Source>('camera');
  const capture = useCapture(source, open && !recovered && phase !== 'review');
  const [countdown, setCountdown] = useState(COUNTDOWN_SECONDS);
  const [elapsedMs, setElapsedMs] = useState(0);
  const [paused, setPaused] = useState(false);
  const [limit, setLimit] = useState<LimitCheck>({ stop: null, warn: null });
  const [recording, setRecording] = useState<StoredRecording | null>(null);
  const [uploadState, setUploadState] = useState<UploadState | null>(null);
  const [problem, setProblem] = useState('');
  const [total, setTotal] = useState(0);
  const session = useRef<RecordingSession | null>(null);
  const upload = useRef<RecordingUpload | null>(null);
  const chunkSource = useRef<ChunkSource | null>(null);
  const room = useRef<number | null>(null);
  const save = useSaveRecording();
  const body = useRef<HTMLDivElement>(null);
  const shownPhase = useRef(phase);
  const setOpenRecording = useSetAtom(openRecordingAtom);
  const bumpStored = useSetAtom(storedRecordingsVersionAtom);

  const startUpload = useCallback((stored: StoredRecording, from: ChunkSource) => {
    chunkSource.current = from;
    setTotal(from.size);
    upload.current = uploadRecording(recordingStore(), stored, from, setUploadState);
  }, []);

  // A recovered recording: served from the store again, its upload resumed where the server stopped.
  useEffect(() => {
    if (!open || !recovered) return;
    let gone = false;
    const store = recordingStore();
    void (async () => {
      const sizes = await store.chunkSizes(recovered.id);
      const stopped = { ...recovered, stopped: true };
      await store.put(stopped);
      if (gone) return;
      setOpenRecording(stopped.id);
      setRecording(stopped);
      startUpload(stopped, new ChunkSource(store, stopped.id, { sizes, stopped: true }));
    })();
    return () => {
      gone = true;
    };
  }, [open, recovered, setOpenRecording, startUpload]);

  const stop = useCallback(async () => {
    const running = session.current;
    if (!running) return;
    session.current = null;
    const stopped = await running.stop();
    setTotal(running.source.size);
    setRecording({ ...stopped });
    setPhase('review');
  }, []);

  const begin = useCallback(async () => {
    const stream = capture.stream();
    const mimeType = recordingType(MediaRecorder.isTypeSupported);
    if (!stream || !mimeType) return;
    room.current = await freeRoom();
    if (room.current !== null && room.current < STOP_ROOM_BYTES) {
      setProblem(t('recording.limit.roomNone'));
      return;
    }
    const stored: StoredRecording = {
      id: crypto.randomUUID(),
      userId,
      courseId,
      nameOfTopic,
      mimeType,
      startedAt: Date.now(),
      durationMs: 0,
      uploadUrl: null,
      stopped: false,
    };
    const made = new RecordingSession(recordingStore(), stored, {
      onChunk: () => {
        setTotal(made.source.size);
        void freeRoom().then((free) => {
          room.current = free;
        });
      },
      onStoreFailed: () => {
        setProblem(t('recording.limit.storeFailed'));
        void stop();
      },
    });
    session.current = made;
    setOpenRecording(stored.id);
    await made.start(stream);
    startUpload(stored, made.source);
    setPaused(false);
    setPhase('recording');
  }, [capture, userId, courseId, nameOfTopic, setOpenRecording, startUpload, stop]);

  // 3, 2, 1, then record.
  useEffect(() => {
    if (phase !== 'countdown') return;
    if (countdown <= 0) {
      void begin().catch((error: unknown) => {
        setProblem(errorMessage(error));
        setPhase('setup');
      });
      return;
    }
    const timer = setTimeout(() => setCountdown((left) => left - 1), 1000);
    return () => clearTimeout(timer);
  }, [phase, countdown, begin]);

  // The clock, and the limits: stopped in time, said a minute before.
  useEffect(() => {
    if (phase !== 'recording' || !limits) return;
    const timer = setInterval(() => {
      const running = session.current;
      if (!running) return;
      const elapsed = running.clock.elapsedMs;
      setElapsedMs(elapsed);
      const check = checkLimits(limits, elapsed, running.source.size, room.current);
      setLimit(check);
      if (check.stop) void stop();
    }, 250);
    return () => clearInterval(timer);
  }, [phase, limits, stop]);

  // The teacher stopped sharing from the browser's own bar: the recording stops there, nothing is lost.
  useEffect(() => {
    const track = capture.screen?.getVideoTracks()[0];
    if (!track || phase !== 'recording') return;
    const ended = () => void stop();
    track.addEventListener('ended', ended);
    return () => track.removeEventListener('ended', ended);
  }, [capture.screen, phase, stop]);

  // Leaving the page's screen (sign-out, a closed class) stops the recorder; the chunks stay for "finish uploading".
  useEffect(
    () => () => {
      void session.current?.stop();
      upload.current?.detach();
      void upload.current?.cancel(false);
      setOpenRecording(null);
    },
    [setOpenRecording],
  );

  // A new step removes the button that was pressed (Start, Stop, Discard): focus moves into the new step, not to the page.
  useEffect(() => {
    if (shownPhase.current === phase) return;
    shownPhase.current = phase;
    const step = body.current;
    (step?.querySelector<HTMLElement>('[data-step-focus]') ?? step?.querySelector<HTMLElement>(FIRST_CONTROL))?.focus();
  }, [phase]);

  // Closed before it leaves the page, so the browser gives focus back to what opened it (Add New Topic).
  useLayoutEffect(() => {
    const dialog = body.current?.closest('dialog');
    return () => {
      if (dialog?.open) dialog.close();
    };
  }, []);

  const finish = () => {
    setOpenRecording(null);
    bumpStored((version) => version + 1);
    onClose();
  };

  const close = () => {
    if (phase === 'recording') return; // Stop is the way out: Escape never ends a lecture by accident.
    if (phase === 'countdown') {
      setPhase('setup');
      return;
    }
    if (phase === 'review' && recording) {
      // Kept in this browser: the banner offers to finish it.
      void upload.current?.cancel(false);
      upload.current = null;
      toast.info(t('recording.review.keptForLater'));
    }
    finish();
  };

  async function onSave(values: ReviewValues) {
    if (!recording || !upload.current) return;
    setProblem('');
    try {
      const lecture = await save.mutateAsync({
        uploaded: upload.current.finished,
        recordedSeconds: recording.durationMs / 1000,
        courseId: recording.courseId,
        nameOfTopic: values.nameOfTopic,
        trim: values.trim,
      });
      await recordingStore().remove(recording.id);
      toast.success(t('recording.review.saved', { name: values.nameOfTopic }));
      upload.current = null;
      onSaved?.(lecture._id);
      finish();
    } catch (error) {
      setProblem(errorMessage(error));
    }
  }

  async function onDiscard() {
    if (!recording) return;
    const running = upload.current;
    upload.current = null;
    try {
      const result = running?.state.result;
      if (result) await deleteRecordedVideo(result.videoId);
      else await running?.cancel(true);
    } catch {
      // the server deletes an unused upload after a day
    }
    await recordingStore().remove(recording.id);
    setRecording(null);
    setUploadState(null);
    setElapsedMs(0);
    toast.info(t('recording.review.discarded'));
    if (recovered) finish();
    else {
      setOpenRecording(null);
      setPhase('setup');
    }
  }

  const durationSeconds = uploadState?.result?.video?.durationSeconds || (recording ? recording.durationMs / 1000 : 0);

  return (
    <Modal open={open} wide title={t('recording.title')} onClose={close}>
      <div ref={body}>
        {phase === 'setup' && (
          <SetupStep
            source={source}
            onSource={setSource}
            capture={capture}
            footer={
              <>
                {problem && (
                  <p role="alert" className="text-sm text-red-700">
                    {problem}
                  </p>
                )}
                <div className="flex flex-wrap justify-end gap-2">
                  <button type="button" className="btn btn-secondary" onClick={close}>
                    {t('common.cancel')}
                  </button>
                  <button
                    type="button"
                    className="btn btn-primary"
                    disabled={!capture.ready || !limits}
                    onClick={() => {
                      setProblem('');
                      setCountdown(COUNTDOWN_SECONDS);
                      setPhase('countdown');
                    }}
                  >
                    {t('recording.start')}
                  </button>
                </div>
              </>
            }
          />
        )}
        {(phase === 'countdown' || phase === 'recording') && (
          <RecordingStep
            countdown={phase === 'countdown' ? countdown : null}
            elapsedMs={elapsedMs}
            paused={paused}
            limit={limit}
            limits={limits}
            upload={uploadState}
            total={total}
            problem={problem}
            preview={capture}
            source={source}
            onPause={() => {
              session.current?.pause();
              setPaused(true);
            }}
            onResume={() => {
              session.current?.resume();
              setPaused(false);
            }}
            onStop={() => void stop()}
            onCancelCountdown={() => setPhase('setup')}
          />
        )}
        {phase === 'review' && recording && (
          <ReviewStep
            recording={recording}
            durationSeconds={durationSeconds}
            upload={uploadState}
            total={total}
            busy={save.isPending}
            error={problem}
            onSave={(values) => void onSave(values)}
            onDiscard={() => void onDiscard()}
          />
        )}
      </div>
    </Modal>
  );
}
