import { useState } from 'react';
import { useNavigate } from 'react-router';
import { logout, logoutEverywhere } from '../api/users';
import { Avatar } from '../components/Avatar';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { LogOutIcon } from '../components/icons';
import { DeleteAccountForm } from '../components/settings/DeleteAccountForm';
import { PictureForm } from '../components/settings/PictureForm';
import { ProfileInfoForm } from '../components/settings/ProfileInfoForm';
import { SecurityForm } from '../components/settings/SecurityForm';
import { Tabs } from '../components/Tabs';
import { toast } from '../lib/toast';
import { useSession } from '../state/session';
import { discardAllUploads, hasActiveUploads } from '../state/uploads';

const tabs = ['Profile Info', 'Security', 'Profile Picture'] as const;
type Tab = (typeof tabs)[number];

export function SettingsPage() {
  const { user, setUser, signOut } = useSession();
  const [tab, setTab] = useState<Tab>('Profile Picture');
  /** Set while the "uploads are still running" question is open: whether the sign-out asked was everywhere. */
  const [askingEverywhere, setAskingEverywhere] = useState<boolean | null>(null);
  const [leaving, setLeaving] = useState(false);
  const navigate = useNavigate();
  if (!user) return null;

  // The server ends the session; this device forgets it either way (offline, the token just stays unused).
  const leave = async (everywhere: boolean) => {
    setLeaving(true);
    // Stopped while the token still works, so the server deletes what it has of each upload.
    await discardAllUploads();
    const ended = await (everywhere ? logoutEverywhere() : logout()).then(
      () => true,
      () => false,
    );
    navigate('/login', { replace: true });
    signOut();
    if (everywhere && !ended) toast.error('Could not reach the server: other devices are still signed in.');
    else toast.success(everywhere ? 'Logged out of all devices' : 'Logged out successfully');
  };

  const ask = (everywhere: boolean) => {
    if (hasActiveUploads()) setAskingEverywhere(everywhere);
    else void leave(everywhere);
  };

  return (
    <section className="mx-auto max-w-2xl">
      <ConfirmDialog
        open={askingEverywhere !== null}
        title="Uploads are still running"
        confirmLabel="Stop uploads and log out"
        busyLabel="Logging out..."
        busy={leaving}
        onConfirm={() => void leave(askingEverywhere === true)}
        onClose={() => setAskingEverywhere(null)}
      >
        Logging out stops them and deletes what was sent. Stay to let them finish.
      </ConfirmDialog>
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
        <div className="flex flex-col gap-2">
          <button type="button" className="btn btn-secondary" onClick={() => ask(false)}>
            <LogOutIcon size={18} /> Logout
          </button>
          <button type="button" className="btn btn-secondary text-sm" onClick={() => ask(true)}>
            Log out of all devices
          </button>
        </div>
      </div>

      <div className="card mt-6">
        <Tabs label="Settings" tabs={tabs} selected={tab} onSelect={setTab} panelClassName="p-6">
          {tab === 'Profile Info' && <ProfileInfoForm user={user} onSaved={setUser} />}
          {tab === 'Security' && (
            <>
              <SecurityForm user={user} />
              <DeleteAccountForm user={user} />
            </>
          )}
          {tab === 'Profile Picture' && <PictureForm user={user} onSaved={setUser} />}
        </Tabs>
      </div>
    </section>
  );
}
