import { type FormEvent, useState } from 'react';
import { type Lecture, useCreateLecture, useUpdateLecture } from '../api/lectures';
import { errorMessage } from '../api/query-client';
import { FormError } from './FormError';
import { Modal, ModalActions } from './Modal';
import { TopicNameField, UploadProgress, useUpload, VideoFileField } from './TopicFields';

export function AddTopicModal({
  courseId,
  open,
  onClose,
  onAdded,
}: {
  courseId: string;
  open: boolean;
  onClose: () => void;
  onAdded: (lecture: Lecture) => void;
}) {
  const createLecture = useCreateLecture();
  const [name, setName] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const { percent, upload, cancel } = useUpload();

  const close = () => {
    cancel();
    setName('');
    setFile(null);
    setError('');
    onClose();
  };

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!name.trim() || !file) {
      setError('Please provide both a topic name and a video file.');
      return;
    }
    setBusy(true);
    setError('');
    try {
      const { masterPlaylist } = await upload(file);
      const lecture = await createLecture.mutateAsync({
        courseId,
        nameOfTopic: name.trim(),
        videoLink: masterPlaylist,
      });
      onAdded(lecture);
      setName('');
      setFile(null);
      onClose();
    } catch (failure) {
      if ((failure as Error).name !== 'AbortError') setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal open={open} title="Add New Topic" onClose={close}>
      <form onSubmit={onSubmit} className="flex flex-col gap-4" noValidate>
        <TopicNameField value={name} onChange={setName} disabled={busy} />
        <VideoFileField label="Video File" onChange={setFile} disabled={busy} />
        <UploadProgress percent={percent} />
        <FormError message={error} />
        <ModalActions onCancel={close} busy={busy} label="Save" busyLabel="Uploading..." />
      </form>
    </Modal>
  );
}

type VideoAction = 'keep' | 'delete' | 'update';

export function EditTopicModal({ lecture, onClose }: { lecture: Lecture | null; onClose: () => void }) {
  return (
    <Modal open={lecture !== null} title="Edit Topic" onClose={onClose}>
      {lecture && <EditTopicForm key={lecture._id} lecture={lecture} onClose={onClose} />}
    </Modal>
  );
}

function EditTopicForm({ lecture, onClose }: { lecture: Lecture; onClose: () => void }) {
  const updateLecture = useUpdateLecture();
  const [name, setName] = useState(lecture.nameOfTopic);
  const [action, setAction] = useState<VideoAction>('keep');
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const { percent, upload, cancel } = useUpload();

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!name.trim()) {
      setError('Please provide a topic name.');
      return;
    }
    if (action === 'update' && !file) {
      setError('Please choose the new video file.');
      return;
    }
    setBusy(true);
    setError('');
    try {
      let videoLink: string | undefined;
      // An empty link removes the video (null would mean "unchanged" while the video still processes).
      if (action === 'delete') videoLink = '';
      if (action === 'update' && file) videoLink = (await upload(file)).masterPlaylist;
      await updateLecture.mutateAsync({
        id: lecture._id,
        nameOfTopic: name.trim(),
        ...(videoLink !== undefined ? { videoLink } : {}),
      });
      onClose();
    } catch (failure) {
      if ((failure as Error).name !== 'AbortError') setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  }

  const options: { value: VideoAction; label: string }[] = [
    { value: 'keep', label: 'Keep current video' },
    { value: 'delete', label: 'Delete video' },
    { value: 'update', label: 'Update video' },
  ];

  return (
    <form onSubmit={onSubmit} className="flex flex-col gap-4" noValidate>
      <TopicNameField value={name} onChange={setName} disabled={busy} />
      <p className="text-sm text-slate-600">
        Current video:{' '}
        <span className="font-medium break-all text-slate-900">
          {lecture.video ? lecture.video.fileName || 'HLS Stream' : 'none'}
        </span>
      </p>
      <fieldset className="flex flex-col gap-2" disabled={busy}>
        <legend className="sr-only">Video</legend>
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
      {action === 'update' && <VideoFileField label="New video file" onChange={setFile} disabled={busy} />}
      <UploadProgress percent={percent} />
      <FormError message={error} />
      <ModalActions
        onCancel={() => {
          cancel();
          onClose();
        }}
        busy={busy}
        label="Save"
        busyLabel={percent !== null ? 'Uploading...' : 'Saving...'}
      />
    </form>
  );
}
