import { type FormEvent, useEffect, useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { ApiError } from '../api/client';
import { changeName, changePassword, type User, uploadProfilePicture } from '../api/users';
import { Avatar } from '../components/Avatar';
import { LogOutIcon } from '../components/icons';
import { PasswordInput } from '../components/PasswordInput';
import { storeToken } from '../lib/token-cookie';
import { useSession } from '../state/session';

const tabs = ['Profile Info', 'Security', 'Profile Picture'] as const;
type Tab = (typeof tabs)[number];
const MIN_NAME_LENGTH = 2;

export function SettingsPage() {
  const { user, setUser, signOut } = useSession();
  const [tab, setTab] = useState<Tab>('Profile Picture');
  const navigate = useNavigate();
  const baseId = useId();
  if (!user) return null;

  const onLogout = () => {
    try {
      signOut();
      toast.success('Logged out successfully');
      navigate('/login');
    } catch {
      toast.error('Error logging out');
    }
  };

  return (
    <section className="mx-auto max-w-2xl">
      <h1 className="page-title">Settings</h1>
      <div className="card mt-6 flex flex-col items-center gap-4 p-6 text-center sm:flex-row sm:text-left">
        <Avatar src={user.profilePictureImageLink} name={user.username} size={80} />
        <div className="min-w-0 flex-1">
          <p className="truncate text-xl font-semibold text-slate-900">{user.username}</p>
          <p className="truncate text-slate-600">{user.email}</p>
          <span className="mt-1 inline-block rounded-full bg-indigo-50 px-2.5 py-0.5 text-xs font-medium capitalize text-indigo-700">
            {user.role}
          </span>
        </div>
        <button type="button" className="btn btn-secondary" onClick={onLogout}>
          <LogOutIcon size={18} /> Logout
        </button>
      </div>

      <div className="card mt-6">
        <div role="tablist" aria-label="Settings" className="flex overflow-x-auto border-b border-slate-200">
          {tabs.map((name) => (
            <button
              key={name}
              type="button"
              role="tab"
              id={`${baseId}-${name}`}
              aria-selected={tab === name}
              aria-controls={`${baseId}-${name}-panel`}
              onClick={() => setTab(name)}
              className={`-mb-px shrink-0 border-b-2 px-4 py-3 text-sm font-medium whitespace-nowrap ${
                tab === name
                  ? 'border-indigo-600 text-indigo-700'
                  : 'border-transparent text-slate-600 hover:text-slate-900'
              }`}
            >
              {name}
            </button>
          ))}
        </div>
        <div role="tabpanel" id={`${baseId}-${tab}-panel`} aria-labelledby={`${baseId}-${tab}`} className="p-6">
          {tab === 'Profile Info' && <ProfileInfoForm user={user} onSaved={setUser} />}
          {tab === 'Security' && <SecurityForm user={user} />}
          {tab === 'Profile Picture' && <PictureForm user={user} onSaved={setUser} />}
        </div>
      </div>
    </section>
  );
}

function ProfileInfoForm({ user, onSaved }: { user: User; onSaved: (user: User) => void }) {
  const [name, setName] = useState(user.username);
  const [busy, setBusy] = useState(false);
  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (name.trim().length < MIN_NAME_LENGTH) {
      toast.error('Please enter a valid name', { duration: 3000 });
      return;
    }
    setBusy(true);
    try {
      onSaved(await changeName(user._id, name.trim()));
      toast.success('Name updated successfully!', { duration: 3000 });
    } catch (error) {
      toast.error(
        error instanceof ApiError && error.status ? error.message : 'Failed to update name. Please try again.',
        {
          duration: 3000,
        },
      );
    } finally {
      setBusy(false);
    }
  }
  return (
    <form onSubmit={onSubmit} className="flex flex-col gap-4" noValidate>
      <div className="field">
        <label htmlFor="profile-name">Name</label>
        <input
          id="profile-name"
          className="input"
          value={name}
          onChange={(event) => setName(event.target.value)}
          maxLength={40}
          autoComplete="name"
        />
      </div>
      <div className="field">
        <label htmlFor="profile-email">Email</label>
        <input id="profile-email" className="input bg-slate-50 text-slate-500" value={user.email} readOnly />
      </div>
      <button type="submit" className="btn btn-primary self-start" disabled={busy}>
        {busy ? 'Saving...' : 'Save Name'}
      </button>
    </form>
  );
}

function SecurityForm({ user }: { user: User }) {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [busy, setBusy] = useState(false);
  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (next !== confirm) {
      toast.error("New passwords don't match");
      return;
    }
    setBusy(true);
    try {
      const answer = await changePassword(user._id, current, next);
      storeToken(answer.token);
      toast.success('Password updated successfully');
      setCurrent('');
      setNext('');
      setConfirm('');
    } catch (error) {
      toast.error('Failed to update password. Please try again.', {
        description: error instanceof ApiError && error.status ? error.message : undefined,
      });
    } finally {
      setBusy(false);
    }
  }
  return (
    <form onSubmit={onSubmit} className="flex flex-col gap-4">
      <PasswordInput
        label="Current password"
        name="currentPassword"
        value={current}
        onChange={setCurrent}
        autoComplete="current-password"
      />
      <PasswordInput
        label="New password"
        name="newPassword"
        value={next}
        onChange={setNext}
        autoComplete="new-password"
        minLength={8}
      />
      <PasswordInput
        label="Confirm new password"
        name="confirmPassword"
        value={confirm}
        onChange={setConfirm}
        autoComplete="new-password"
        minLength={8}
      />
      <p className="text-xs text-slate-500">At least 8 characters. Other devices will be signed out.</p>
      <button type="submit" className="btn btn-primary self-start" disabled={busy}>
        {busy ? 'Updating...' : 'Update Password'}
      </button>
    </form>
  );
}

function PictureForm({ user, onSaved }: { user: User; onSaved: (user: User) => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  useEffect(() => {
    if (!file) return setPreview(null);
    const url = URL.createObjectURL(file);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!file?.type.startsWith('image/')) {
      toast.error('Please select an image file to upload.');
      return;
    }
    toast.info('Starting upload...');
    setProgress(0);
    try {
      onSaved(await uploadProfilePicture(file, setProgress));
      toast.success('Profile picture updated successfully!');
      setFile(null);
    } catch (error) {
      toast.error('Failed to update profile picture. Please try again.', {
        description: error instanceof ApiError && error.status ? error.message : undefined,
      });
    } finally {
      setProgress(null);
    }
  }
  return (
    <form onSubmit={onSubmit} className="flex flex-col items-center gap-4 sm:flex-row sm:items-start">
      <Avatar src={preview ?? user.profilePictureImageLink} name={user.username} size={112} />
      <div className="flex w-full flex-1 flex-col gap-3">
        <div className="field">
          <label htmlFor="profile-picture">Choose a picture</label>
          <input
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
