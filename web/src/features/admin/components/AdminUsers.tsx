import { formatLongDate } from '@lib/format';
import { type MessageKey, t } from '@lib/i18n';
import { useSession } from '@lib/session';
import { toast } from '@lib/toast';
import { ConfirmDialog } from '@ui/ConfirmDialog';
import { Field } from '@ui/Field';
import { QueryState } from '@ui/QueryState';
import { theirWords } from '@ui/TheirWords';
import { useState } from 'react';
import { type AdminUser, useAdminUsers, useDeleteUser, useSendReset, useUpdateUser } from '../api/admin';

/** Search users; approve teachers; disable, reset a password, delete. */
export function AdminUsers() {
  const [search, setSearch] = useState('');
  const query = useAdminUsers(search.trim());
  const [deleting, setDeleting] = useState<AdminUser | null>(null);
  const remove = useDeleteUser();
  return (
    <section aria-labelledby="admin-users" className="flex flex-col gap-4">
      <h2 id="admin-users" className="sr-only">
        {t('admin.tab.users')}
      </h2>
      <Field label={t('admin.users.search')} id="user-search" type="search" value={search} onValue={setSearch} />
      <QueryState
        query={query}
        label={t('admin.users.what')}
        empty={<p className="text-sm text-slate-600">{t('admin.users.empty')}</p>}
      >
        {(users) => (
          <ul className="flex flex-col gap-3">
            {users.map((user) => (
              <UserRow key={user._id} user={user} onDelete={() => setDeleting(user)} />
            ))}
          </ul>
        )}
      </QueryState>
      <ConfirmDialog
        open={deleting !== null}
        title={t('admin.deleteTitle', { name: deleting?.username ?? '' })}
        heading={theirWords(t('admin.deleteHeading', { name: deleting?.username ?? '' }))}
        confirmLabel={t('admin.users.deleteConfirm')}
        busy={remove.isPending}
        onClose={() => setDeleting(null)}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting._id, {
            onSuccess: () => {
              toast.success(t('admin.users.deleted', { name: deleting.username }));
              setDeleting(null);
            },
          })
        }
      >
        <p>{theirWords(t('admin.users.deleteText', { email: deleting?.email ?? '' }), 'font-bold')}</p>
        <ul className="mt-2 list-disc ps-5 text-sm">
          {deleting?.role === 'teacher' && <li>{t('admin.users.deleteGoesTeacher')}</li>}
          <li>{t('admin.users.deleteGoesAll')}</li>
        </ul>
      </ConfirmDialog>
    </section>
  );
}

function UserRow({ user, onDelete }: { user: AdminUser; onDelete: () => void }) {
  const { user: me } = useSession();
  const update = useUpdateUser();
  const reset = useSendReset();
  const [disabling, setDisabling] = useState(false);
  const isMe = me?._id === user._id;
  const badges = [
    user.isAdmin && 'admin.users.badge.admin',
    user.teacherStatus === 'pending' && 'admin.users.badge.pending',
    user.teacherStatus === 'declined' && 'admin.users.badge.declined',
    user.disabled && 'admin.users.badge.disabled',
  ].filter((badge): badge is MessageKey => Boolean(badge));
  return (
    <li className="card flex flex-col gap-3 p-4 sm:flex-row sm:items-center">
      <div className="min-w-0 flex-1">
        <p className="font-medium break-words text-slate-900">
          <span translate="no">{user.username}</span>{' '}
          <span className="text-sm font-normal capitalize text-slate-600">
            · {t(user.role === 'teacher' ? 'common.role.teacher' : 'common.role.student')}
          </span>
        </p>
        <p className="text-sm break-all text-slate-600" translate="no">
          {user.email}
        </p>
        <p className="mt-1 text-xs text-slate-600">
          {user.lastLoginAt
            ? t('admin.users.facts', { classes: user.classes, date: formatLongDate(user.lastLoginAt) })
            : t('admin.users.factsNever', { classes: user.classes })}
        </p>
        {badges.length > 0 && (
          <p className="mt-1 flex flex-wrap gap-1">
            {badges.map((badge) => (
              <span key={badge} className="rounded-full bg-amber-50 px-2 py-0.5 text-xs font-medium text-amber-800">
                {t(badge)}
              </span>
            ))}
          </p>
        )}
      </div>
      <div className="flex flex-wrap gap-2">
        {user.teacherStatus === 'pending' && (
          <>
            <button
              type="button"
              className="btn btn-primary h-9 px-3 text-sm"
              disabled={update.isPending}
              onClick={() =>
                update.mutate(
                  { id: user._id, teacherApproved: true },
                  { onSuccess: () => toast.success(t('admin.users.approved', { name: user.username })) },
                )
              }
              aria-label={t('admin.users.approveLabel', { name: user.username })}
            >
              {t('admin.users.approve')}
            </button>
            <button
              type="button"
              className="btn btn-secondary h-9 px-3 text-sm"
              disabled={update.isPending}
              onClick={() =>
                update.mutate(
                  { id: user._id, teacherApproved: false },
                  { onSuccess: () => toast.success(t('admin.users.declined', { name: user.username })) },
                )
              }
              aria-label={t('admin.users.declineLabel', { name: user.username })}
            >
              {t('admin.users.decline')}
            </button>
          </>
        )}
        <button
          type="button"
          className="btn btn-secondary h-9 px-3 text-sm"
          disabled={reset.isPending}
          onClick={() => reset.mutate(user._id, { onSuccess: (answer) => toast.success(answer.message) })}
          aria-label={t('admin.users.resetLabel', { name: user.username })}
        >
          {t('admin.users.reset')}
        </button>
        {!isMe && (
          <>
            <button
              type="button"
              className="btn btn-secondary h-9 px-3 text-sm"
              disabled={update.isPending}
              // Enabling gives access back at once; disabling signs the person out everywhere, so it asks first.
              onClick={() => (user.disabled ? update.mutate({ id: user._id, disabled: false }) : setDisabling(true))}
              aria-label={t(user.disabled ? 'admin.users.enableLabel' : 'admin.users.disableLabel', {
                name: user.username,
              })}
            >
              {t(user.disabled ? 'admin.users.enable' : 'admin.users.disable')}
            </button>
            <ConfirmDialog
              open={disabling}
              title={t('admin.users.disableTitle', { name: user.username })}
              heading={theirWords(t('admin.users.disableHeading', { name: user.username }))}
              confirmLabel={t('admin.users.disableConfirm')}
              busyLabel={t('admin.users.disabling')}
              busy={update.isPending}
              onClose={() => setDisabling(false)}
              onConfirm={() =>
                update.mutate(
                  { id: user._id, disabled: true },
                  {
                    onSuccess: () => {
                      toast.success(t('admin.users.disabled', { name: user.username }));
                      setDisabling(false);
                    },
                  },
                )
              }
            >
              <p>{theirWords(t('admin.users.disableText', { email: user.email }), 'font-bold break-all')}</p>
            </ConfirmDialog>
            <button
              type="button"
              className="btn btn-danger h-9 px-3 text-sm"
              onClick={onDelete}
              aria-label={t('admin.users.deleteLabel', { name: user.username })}
            >
              {t('common.delete')}
            </button>
          </>
        )}
      </div>
    </li>
  );
}
