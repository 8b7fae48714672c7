import { offeredLocales, t } from '@lib/i18n';
import { useProviders } from '@lib/providers';
import { useSession } from '@lib/session';
import { toast } from '@lib/toast';
import { usePageTitle } from '@lib/use-page-title';
import { Avatar } from '@ui/Avatar';
import { ConfirmDialog } from '@ui/ConfirmDialog';
import { LogOutIcon } from '@ui/icons';
import { Tabs } from '@ui/Tabs';
import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { logout } from '../features/auth/api/users';
import { flushNotes, hasQueuedNotes } from '../features/notes/state/notes-queue';
import { logoutEverywhere } from '../features/settings/api/account';
import { DeleteAccountForm } from '../features/settings/components/DeleteAccountForm';
import { LanguageForm } from '../features/settings/components/LanguageForm';
import { LinkedSignIn } from '../features/settings/components/LinkedSignIn';
import { NotificationSettings } from '../features/settings/components/NotificationSettings';
import { PictureForm } from '../features/settings/components/PictureForm';
import { ProfileInfoForm } from '../features/settings/components/ProfileInfoForm';
import { SecurityForm } from '../features/settings/components/SecurityForm';
import { discardAllUploads, hasActiveUploads } from '../features/uploads/state/uploads';

const baseTabs = ['profile', 'security', 'picture'] as const;
/** Shown when the server has a school sign-in (OIDC) to link. */
const withLinkedSignIn = [...baseTabs, 'linked'] as const;
type Tab = (typeof withLinkedSignIn)[number];
/** Each tab's name, read when drawn (the messages load after this module). */
const tabLabels = (): Record<Tab, string> => ({
  profile: t('settings.tab.profile'),
  security: t('settings.tab.security'),
  picture: t('settings.tab.picture'),
  linked: t('settings.tab.linked'),
});
/** A phone's row of four tabs (three whole names fit 375 px, four do not): a word of each long name, read whole. */
const phoneLabels = (): Partial<Record<Tab, string>> => ({
  profile: t('settings.tab.profileShort'),
  picture: t('settings.tab.pictureShort'),
  linked: t('settings.tab.linkedShort'),
});

export function SettingsPage() {
  const { user, setUser, signOut } = useSession();
  usePageTitle(t('settings.title'));
  const [params, setParams] = useSearchParams();
  // Back from linking a school account (?linked=school): its tab, a confirmation, and a clean address bar.
  const [justLinked, setJustLinked] = useState(() => params.get('linked') === 'school');
  // Back from confirming with the school account (?confirmed=delete|password): the Security tab, ready.
  // Otherwise Profile Picture, the spec's default tab.
  const [tab, setTab] = useState<Tab>(justLinked ? 'linked' : params.has('confirmed') ? 'security' : 'picture');
  useEffect(() => {
    if (params.has('linked')) setParams({}, { replace: true });
  }, [params, setParams]);
  const providers = useProviders();
  const tabs = providers.data?.oidc || justLinked ? withLinkedSignIn : baseTabs;
  /** Set while the "uploads are still running" question is open: whether the sign-out asked was everywhere. */
  const [askingEverywhere, setAskingEverywhere] = useState<boolean | null>(null);
  const [leaving, setLeaving] = useState(false);
  const [unsentNotes, setUnsentNotes] = useState(false);
  const navigate = useNavigate();
  if (!user) return null;

  // The server ends the session; this device forgets it either way (offline, the token just stays unused).
  const leave = async (everywhere: boolean) => {
    setLeaving(true);
    // Stopped while the token still works, so the server deletes what it has of each upload.
    await discardAllUploads();
    let endSessionUrl: string | undefined;
    const ended = await (everywhere ? logoutEverywhere() : logout()).then(
      (answer) => {
        endSessionUrl = (answer as { endSessionUrl?: string }).endSessionUrl;
        return true;
      },
      () => false,
    );
    navigate('/login', { replace: true });
    signOut();
    // The school signs out at its provider too (OIDC_END_SESSION): the provider's page comes back to the app.
    if (endSessionUrl) {
      window.location.assign(endSessionUrl);
      return;
    }
    if (everywhere && !ended) toast.error(t('settings.logout.othersStillIn'));
    else toast.success(t(everywhere ? 'settings.logout.everywhereDone' : 'settings.logout.done'));
  };

  const ask = async (everywhere: boolean) => {
    // Notes written offline go first while the token still works; what cannot be sent would be lost (docs/offline.md).
    if (hasQueuedNotes()) await flushNotes();
    setUnsentNotes(hasQueuedNotes());
    if (hasActiveUploads() || hasQueuedNotes()) setAskingEverywhere(everywhere);
    else void leave(everywhere);
  };

  return (
    <section className="mx-auto max-w-2xl">
      <ConfirmDialog
        open={askingEverywhere !== null}
        title={t(unsentNotes ? 'settings.logout.notesTitle' : 'settings.logout.uploadsTitle')}
        confirmLabel={t(unsentNotes ? 'settings.logout.notesConfirm' : 'settings.logout.uploadsConfirm')}
        busyLabel={t('settings.logout.busy')}
        busy={leaving}
        onConfirm={() => void leave(askingEverywhere === true)}
        onClose={() => setAskingEverywhere(null)}
      >
        {t(unsentNotes ? 'settings.logout.notesText' : 'settings.logout.uploadsText')}
      </ConfirmDialog>
      <h1 className="page-title">{t('settings.title')}</h1>
      {/* Side by side only from lg: beside a tablet's sidebar the buttons left the name a few letters. */}
      <div className="card mt-6 flex flex-col items-center gap-4 p-6 text-center lg:flex-row lg:text-start">
        <Avatar src={user.profilePictureImageLink} name={user.username} size={80} />
        <div className="min-w-0 flex-1">
          <p className="truncate text-xl font-semibold text-slate-900" translate="no">
            {user.username}
          </p>
          <p className="truncate text-slate-600" translate="no">
            {user.email}
          </p>
          <span className="mt-1 inline-block rounded-full bg-indigo-50 px-2.5 py-0.5 text-xs font-medium capitalize text-indigo-700">
            {t(user.role === 'teacher' ? 'common.role.teacher' : 'common.role.student')}
          </span>
        </div>
        <div className="flex flex-col gap-2">
          <button type="button" className="btn btn-secondary" onClick={() => void ask(false)}>
            <LogOutIcon size={18} className="rtl:-scale-x-100" /> {t('settings.logout.button')}
          </button>
          <button type="button" className="btn btn-secondary text-sm" onClick={() => void ask(true)}>
            {t('settings.logout.everywhere')}
          </button>
        </div>
      </div>

      <div className="card mt-6">
        <Tabs
          label={t('settings.title')}
          tabs={tabs}
          labels={tabLabels()}
          selected={tab}
          onSelect={setTab}
          panelClassName="p-6"
          shortLabels={tabs.length > baseTabs.length ? phoneLabels() : undefined}
        >
          {tab === 'profile' && <ProfileInfoForm user={user} onSaved={setUser} />}
          {tab === 'security' && (
            <>
              <SecurityForm user={user} />
              <DeleteAccountForm user={user} />
            </>
          )}
          {tab === 'picture' && <PictureForm user={user} onSaved={setUser} />}
          {tab === 'linked' && <LinkedSignIn justLinked={justLinked} onDismiss={() => setJustLinked(false)} />}
        </Tabs>
      </div>
      {offeredLocales.length > 1 && <LanguageForm user={user} onSaved={setUser} />}
      <NotificationSettings />
    </section>
  );
}
