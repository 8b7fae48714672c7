import { ApiError } from '@api/client';
import { useForm } from '@lib/form';
import { t } from '@lib/i18n';
import type { User } from '@lib/session';
import { toast } from '@lib/toast';
import { Avatar } from '@ui/Avatar';
import { FileField } from '@ui/FilePicker';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useUploadProfilePicture } from '../api/account';

export function PictureForm({ user, onSaved }: { user: User; onSaved: (user: User) => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  // The file is checked here; the server's refusal (its `fields`) is said under the field.
  const form = useForm({
    mutation: useUploadProfilePicture(),
    also: (values: { profilePicture: File | null }): Record<string, string> =>
      values.profilePicture?.type.startsWith('image/') ? {} : { profilePicture: t('settings.picture.notImage') },
    send: (values) => ({ file: values.profilePicture as File, onProgress: setProgress }),
  });
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (!file) return setPreview(null);
    const url = URL.createObjectURL(file);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const sent = await form.submit(
      { profilePicture: file },
      {
        onSuccess: (updated) => {
          onSaved(updated);
          toast.success(t('settings.picture.saved'));
          setFile(null);
          // The field is empty again: the picture it named is the one shown now.
          if (input.current) input.current.value = '';
        },
        onError: (error) =>
          toast.error(t('settings.picture.failed'), {
            description: error instanceof ApiError && error.status ? error.message : undefined,
          }),
        onSettled: () => setProgress(null),
      },
    );
    // Not an image: said under the field, and nothing is sent.
    if (!sent) return;
    toast.info(t('settings.picture.starting'));
    setProgress((percent) => percent ?? 0);
  }
  return (
    <form onSubmit={onSubmit} className="flex flex-col items-center gap-4 sm:flex-row sm:items-start">
      <Avatar src={preview ?? user.profilePictureImageLink} name={user.username} size={112} />
      <div className="flex w-full flex-1 flex-col gap-3">
        <FileField
          label={t('settings.picture.choose')}
          id="profile-picture"
          hint={t('settings.picture.hint')}
          problem={form.problems.profilePicture}
          ref={input}
          accept="image/png,image/jpeg,image/gif,image/webp"
          onFile={setFile}
        />
        {progress !== null && (
          <div
            className="h-2 overflow-hidden rounded-full bg-slate-200"
            role="progressbar"
            aria-valuenow={progress}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-label={t('settings.picture.progress')}
          >
            <div className="h-full bg-indigo-600 transition-[width]" style={{ width: `${progress}%` }} />
          </div>
        )}
        <button type="submit" className="btn btn-primary self-start" disabled={form.busy}>
          {t(form.busy ? 'settings.picture.uploading' : 'settings.picture.submit')}
        </button>
      </div>
    </form>
  );
}
