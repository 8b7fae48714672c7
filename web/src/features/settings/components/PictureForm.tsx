import { type FormEvent, useEffect, useRef, useState } from 'react';
import { ApiError } from '../../../api/client';
import type { User } from '../../../lib/session';
import { toast } from '../../../lib/toast';
import { Avatar } from '../../../ui/Avatar';
import { useUploadProfilePicture } from '../api/account';

export function PictureForm({ user, onSaved }: { user: User; onSaved: (user: User) => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const upload = useUploadProfilePicture();
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (!file) return setPreview(null);
    const url = URL.createObjectURL(file);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!file?.type.startsWith('image/')) {
      toast.error('Please select an image file to upload.');
      return;
    }
    toast.info('Starting upload...');
    setProgress(0);
    upload.mutate(
      { file, onProgress: setProgress },
      {
        onSuccess: (updated) => {
          onSaved(updated);
          toast.success('Profile picture updated successfully!');
          setFile(null);
          // The field is empty again: the picture it named is the one shown now.
          if (input.current) input.current.value = '';
        },
        onError: (error) =>
          toast.error('Failed to update profile picture. Please try again.', {
            description: error instanceof ApiError && error.status ? error.message : undefined,
          }),
        onSettled: () => setProgress(null),
      },
    );
  }
  return (
    <form onSubmit={onSubmit} className="flex flex-col items-center gap-4 sm:flex-row sm:items-start">
      <Avatar src={preview ?? user.profilePictureImageLink} name={user.username} size={112} />
      <div className="flex w-full flex-1 flex-col gap-3">
        <div className="field">
          <label htmlFor="profile-picture">Choose a picture</label>
          <input
            ref={input}
            id="profile-picture"
            type="file"
            accept="image/png,image/jpeg,image/gif,image/webp"
            className="file-input"
            onChange={(event) => setFile(event.target.files?.[0] ?? null)}
          />
          <p className="text-xs text-slate-500">JPEG, PNG, GIF or WebP, up to 5 MB. It is cropped to a square.</p>
        </div>
        {progress !== null && (
          <div
            className="h-2 overflow-hidden rounded-full bg-slate-200"
            role="progressbar"
            aria-valuenow={progress}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-label="Upload progress"
          >
            <div className="h-full bg-indigo-600 transition-[width]" style={{ width: `${progress}%` }} />
          </div>
        )}
        <button type="submit" className="btn btn-primary self-start" disabled={progress !== null}>
          {progress !== null ? 'Uploading...' : 'Upload Picture'}
        </button>
      </div>
    </form>
  );
}
