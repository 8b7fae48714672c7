import { ApiError } from '@api/client';
import { errorMessage } from '@api/query-client';
import { lectureKeys } from '@api/query-keys';
import { LIMITS } from '@contract/limits';
import { browserTimeZone, isoOfZonedInput, zonedInputValue } from '@lib/format';
import { locale, rich, t } from '@lib/i18n';
import { useSession } from '@lib/session';
import { toast } from '@lib/toast';
import { useQueryClient } from '@tanstack/react-query';
import { FormError } from '@ui/FormError';
import { Modal, ModalActions } from '@ui/Modal';
import { useAtomValue } from 'jotai';
import { type FormEvent, useEffect, useState } from 'react';
import { ChaptersEditor } from '../../features/chapters/components/ChaptersEditor';
import { useAppInfo } from '../../features/classes/api/app';
import { type Lecture, useUpdateLecture } from '../../features/lectures/api/lectures';
import { CaptionsEditor } from '../../features/lectures/components/CaptionsEditor';
import { RecorderDialog } from '../../features/recording/components/RecorderDialog';
import { SlidesEditor } from '../../features/slides/components/SlidesEditor';
import { looksLikeVideo, startUpload, uploadsAtom } from '../../features/uploads/state/uploads';
import { DescriptionField, TopicNameField, UploadProgress, VideoFileField, WatchByField } from './TopicFields';

/** A topic name from a file name: "week-3_optics.mp4" → "week 3 optics". */
const topicNameOf = (file: File) =>
  file.name
    .replace(/\.[^.]+$/, '')
    .replace(/[_-]+/g, ' ')
    .trim()
    .slice(0, LIMITS.topicNameMax) || t('topic.untitled');

// Read when said (not when this module loads): the language's messages may arrive after it.
const missingOne = () => t('topic.missingOne');
const missingNames = () => t('topic.missingNames');

/**
 * Add New Topic: the upload runs in the tray (resumable), so closing the modal, Escape or a click outside never
 * loses it; the topic appears when the last byte lands. Several files at once make several topics, each named
 * after its file (editable here).
 */
export function AddTopicModal({
  courseId,
  open,
  onClose,
  onAdded,
}: {
  courseId: string;
  open: boolean;
  onClose: () => void;
  onAdded: (lectureId: string) => void;
}) {
  const [name, setName] = useState('');
  const [files, setFiles] = useState<{ file: File; name: string }[]>([]);
  const [error, setError] = useState('');
  const [uploadKey, setUploadKey] = useState<string | null>(null);
  /** The topic being recorded: the recorder takes this dialog's place until it closes. */
  const [recordingName, setRecordingName] = useState<string | null>(null);
  const userId = useSession().user?._id;
  const appInfo = useAppInfo().data;
  const upload = useAtomValue(uploadsAtom).find((item) => item.key === uploadKey);
  // "Something is missing" goes away by itself once every name and a file are there; other problems stay.
  const complete =
    files.length > 1 ? files.every((entry) => entry.name.trim()) : name.trim() !== '' && files.length === 1;
  const missing = error === missingOne() || error === missingNames();
  useEffect(() => {
    if (missing && complete) setError('');
  }, [missing, complete]);
  const busy = upload !== undefined && upload.status !== 'failed' && upload.status !== 'refused';

  const reset = () => {
    setName('');
    setFiles([]);
    setError('');
    setUploadKey(null);
  };
  // Closing keeps the upload going (in the tray); the form is fresh the next time.
  const close = () => {
    reset();
    onClose();
  };
  const finished = upload?.status === 'done';
  useEffect(() => {
    if (!finished) return;
    setName('');
    setFiles([]);
    setUploadKey(null);
    onClose();
  }, [finished, onClose]);

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (files.length > 1) {
      if (files.some((entry) => !entry.name.trim())) {
        setError(missingNames());
        return;
      }
      // Said at once, before anything starts: the batch goes only when every file is a video.
      const notVideos = files.filter((entry) => !looksLikeVideo(entry.file)).map((entry) => `"${entry.file.name}"`);
      if (notVideos.length > 0) {
        const list = new Intl.ListFormat(locale, { type: 'unit', style: 'short' }).format(notVideos);
        setError(t('topic.notVideos', { count: notVideos.length, files: list }));
        return;
      }
      for (const entry of files) startUpload(entry.file, { courseId, nameOfTopic: entry.name.trim() });
      toast.info(t('topic.uploadingMany', { count: files.length }));
      close();
      return;
    }
    const file = files[0]?.file;
    if (!name.trim() || !file) {
      setError(missingOne());
      return;
    }
    setError('');
    setUploadKey(
      startUpload(file, { courseId, nameOfTopic: name.trim() }, (result) => {
        if (result.lectureId) onAdded(result.lectureId);
      }),
    );
  }

  function record() {
    if (!name.trim()) {
      setError(t('recording.needName'));
      return;
    }
    setError('');
    setRecordingName(name.trim());
  }

  return (
    <>
      <Modal open={open && recordingName === null} title={t('topic.addTitle')} onClose={close}>
        <form onSubmit={onSubmit} className="flex flex-col gap-4" noValidate>
          {files.length <= 1 && <TopicNameField value={name} onChange={setName} disabled={busy} />}
          <VideoFileField
            label={t('topic.videoFile')}
            multiple
            disabled={busy}
            onChange={(picked) => {
              setFiles(picked.map((file) => ({ file, name: topicNameOf(file) })));
              if (picked.length === 1 && !name.trim() && picked[0]) setName(topicNameOf(picked[0]));
            }}
          />
          {files.length > 1 && (
            <fieldset className="flex flex-col gap-2">
              <legend className="text-sm font-medium text-slate-700">{t('topic.onePerFile')}</legend>
              {files.map((entry, index) => (
                <label
                  key={`${entry.file.name}-${entry.file.size}-${entry.file.lastModified}`}
                  className="flex flex-col gap-1 text-xs text-slate-500"
                >
                  <span className="truncate" translate="no">
                    {entry.file.name}
                  </span>
                  <input
                    className="input"
                    aria-label={t('topic.nameFor', { file: entry.file.name })}
                    value={entry.name}
                    maxLength={LIMITS.topicNameMax}
                    onChange={(event) =>
                      setFiles((list) =>
                        list.map((item, i) => (i === index ? { ...item, name: event.target.value } : item)),
                      )
                    }
                  />
                </label>
              ))}
            </fieldset>
          )}
          {files.length === 0 && !busy && (
            <button type="button" className="btn btn-secondary self-start" onClick={record}>
              {t('recording.open')}
            </button>
          )}
          <UploadProgress uploadKey={uploadKey} />
          <FormError message={error} />
          <ModalActions onCancel={close} busy={busy} label={t('common.save')} busyLabel={t('topic.uploading')} />
        </form>
      </Modal>
      {recordingName !== null && userId && (
        <RecorderDialog
          open
          courseId={courseId}
          nameOfTopic={recordingName}
          userId={userId}
          limits={appInfo}
          onClose={() => {
            setRecordingName(null);
            close();
          }}
          onSaved={onAdded}
        />
      )}
    </>
  );
}

type VideoAction = 'keep' | 'delete' | 'update';

export function EditTopicModal({ lecture, onClose }: { lecture: Lecture | null; onClose: () => void }) {
  return (
    <Modal open={lecture !== null} title={t('topic.editTitle')} onClose={onClose}>
      {lecture && <EditTopicForm key={lecture._id} lecture={lecture} onClose={onClose} />}
      {lecture && <CaptionsEditor key={`captions-${lecture._id}`} lecture={lecture} />}
      {lecture && <ChaptersEditor key={`chapters-${lecture._id}`} lecture={lecture} />}
      {lecture && <SlidesEditor key={`slides-${lecture._id}`} lecture={lecture} />}
    </Modal>
  );
}

function EditTopicForm({ lecture, onClose }: { lecture: Lecture; onClose: () => void }) {
  const updateLecture = useUpdateLecture();
  const queryClient = useQueryClient();
  const [name, setName] = useState(lecture.nameOfTopic);
  const [description, setDescription] = useState(lecture.description);
  // Typed on the school's clocks (TIME_ZONE); this device's until the server has said which (or if it cannot).
  const zone = useAppInfo().data?.timeZone ?? browserTimeZone();
  /** Null until the teacher changes it: what shows is the saved date, on the school's clocks. */
  const [typedWatchBy, setWatchBy] = useState<string | null>(null);
  const watchBy = typedWatchBy ?? zonedInputValue(lecture.dueAt, zone);
  const [descriptionError, setDescriptionError] = useState('');
  const [action, setAction] = useState<VideoAction>('keep');
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!name.trim()) {
      setError(t('topic.needName'));
      return;
    }
    if (action === 'update' && !file) {
      setError(t('topic.needFile'));
      return;
    }
    if (action === 'update' && file && !looksLikeVideo(file)) {
      setError(t('topic.notVideo', { file: file.name }));
      return;
    }
    setBusy(true);
    setError('');
    setDescriptionError('');
    try {
      // An empty link removes the video (null would mean "unchanged" while the video still processes).
      const videoLink = action === 'delete' ? '' : undefined;
      await updateLecture.mutateAsync({
        id: lecture._id,
        nameOfTopic: name.trim(),
        ...(videoLink !== undefined ? { videoLink } : {}),
        // Sent only when edited: an old description never holds back a rename.
        ...(description !== lecture.description ? { description } : {}),
        // The date on the school's clocks, sent as an instant; only when changed.
        ...(typedWatchBy !== null && typedWatchBy !== zonedInputValue(lecture.dueAt, zone)
          ? { dueAt: isoOfZonedInput(typedWatchBy, zone) }
          : {}),
      });
      // Its timed lines may have changed the chapters the chapter editor shows.
      void queryClient.invalidateQueries({ queryKey: lectureKeys.chapters(lecture._id) });
      // A new video goes through the tray (resumable); the topic shows it when the last byte lands.
      if (action === 'update' && file) {
        startUpload(file, { courseId: lecture.courseId, lectureId: lecture._id });
        toast.info(t('topic.savedUploading'));
      } else toast.success(t(action === 'delete' ? 'topic.savedRemoved' : 'topic.saved'));
      onClose();
    } catch (failure) {
      // A refused description (its chapters, its length) is said by the field, in the server's words.
      const fields =
        failure instanceof ApiError ? (failure.body.fields as Record<string, unknown> | undefined) : undefined;
      if (typeof fields?.description === 'string') setDescriptionError(fields.description);
      else setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  }

  const options: { value: VideoAction; label: string }[] = [
    { value: 'keep', label: t('topic.keepVideo') },
    { value: 'delete', label: t('topic.deleteVideo') },
    { value: 'update', label: t('topic.updateVideo') },
  ];

  return (
    <form onSubmit={onSubmit} className="flex flex-col gap-4" noValidate>
      <TopicNameField value={name} onChange={setName} disabled={busy} />
      <DescriptionField value={description} onChange={setDescription} disabled={busy} error={descriptionError} />
      <WatchByField value={watchBy} onChange={setWatchBy} disabled={busy} zone={zone} />
      <p className="text-sm text-slate-600">
        {rich(
          t('topic.currentVideo', {
            file: lecture.video ? lecture.video.fileName || t('topic.hlsStream') : t('topic.noVideo'),
          }),
          [
            (file) => (
              // A file's own name is the teacher's; "none" and "HLS Stream" are ours.
              <span
                key="file"
                className="font-medium break-all text-slate-900"
                translate={lecture.video?.fileName ? 'no' : undefined}
              >
                {file}
              </span>
            ),
          ],
        )}
      </p>
      <fieldset className="flex flex-col gap-2" disabled={busy}>
        <legend className="sr-only">{t('topic.video')}</legend>
        {options
          .filter((option) => lecture.video || option.value !== 'delete')
          .map((option) => (
            <label key={option.value} className="flex items-center gap-2 text-sm text-slate-700">
              <input
                type="radio"
                name="video-action"
                value={option.value}
                checked={action === option.value}
                onChange={() => setAction(option.value)}
                className="size-4 accent-indigo-600"
              />
              {option.label}
            </label>
          ))}
      </fieldset>
      {action === 'update' && (
        <VideoFileField
          label={t('topic.newVideoFile')}
          onChange={(picked) => setFile(picked[0] ?? null)}
          disabled={busy}
        />
      )}
      <FormError message={error} />
      <ModalActions onCancel={onClose} busy={busy} label={t('common.save')} busyLabel={t('common.saving')} />
    </form>
  );
}
