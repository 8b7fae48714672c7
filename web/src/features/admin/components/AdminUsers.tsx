import { formatLongDate, plural } from '@lib/format';
import { useSession } from '@lib/session';
import { toast } from '@lib/toast';
import { ConfirmDialog } from '@ui/ConfirmDialog';
import { Field } from '@ui/Field';
import { QueryState } from '@ui/QueryState';
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
        Users
      </h2>
      <Field label="Search by name or email" id="user-search" type="search" value={search} onValue={setSearch} />
      <QueryState query={query} label="users" empty={<p className="text-sm text-slate-600">No user matches.</p>}>
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
        title={`Delete ${deleting?.username ?? ''}?`}
        confirmLabel="Delete account"
        busy={remove.isPending}
        onClose={() => setDeleting(null)}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting._id, {
            onSuccess: () => {
              toast.success(`${deleting.username} was deleted.`);
              setDeleting(null);
            },
          })
        }
      >
        <p>
          The account of <strong>{deleting?.email}</strong> goes for good, with everything only it holds:
        </p>
        <ul className="mt-2 list-disc pl-5 text-sm">
          {deleting?.role === 'teacher' && (
            <li>the classes it teaches, their lectures, videos and students' notes in them</li>
          )}
          <li>its uploads, comments, likes, notes and watch history</li>
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
    user.isAdmin && 'Administrator',
    user.teacherStatus === 'pending' && 'Waits for approval',
    user.teacherStatus === 'declined' && 'Declined',
    user.disabled && 'Disabled',
  ].filter((badge): badge is string => Boolean(badge));
  return (
    <li className="card flex flex-col gap-3 p-4 sm:flex-row sm:items-center">
      <div className="min-w-0 flex-1">
        <p className="font-medium break-words text-slate-900">
          {user.username} <span className="text-sm font-normal capitalize text-slate-600">· {user.role}</span>
        </p>
        <p className="text-sm break-all text-slate-600">{user.email}</p>
        <p className="mt-1 text-xs text-slate-600">
          {plural(user.classes, 'class', 'classes')} · last sign-in{' '}
          {user.lastLoginAt ? formatLongDate(user.lastLoginAt) : 'never'}
        </p>
        {badges.length > 0 && (
          <p className="mt-1 flex flex-wrap gap-1">
            {badges.map((badge) => (
              <span key={badge} className="rounded-full bg-amber-50 px-2 py-0.5 text-xs font-medium text-amber-800">
                {badge}
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
                  { onSuccess: () => toast.success(`${user.username} is approved and can now create classes.`) },
                )
              }
              aria-label={`Approve ${user.username} as a teacher`}
            >
              Approve
            </button>
            <button
              type="button"
              className="btn btn-secondary h-9 px-3 text-sm"
              disabled={update.isPending}
              onClick={() =>
                update.mutate(
                  { id: user._id, teacherApproved: false },
                  { onSuccess: () => toast.success(`${user.username}'s request to teach was declined.`) },
                )
              }
              aria-label={`Decline ${user.username}'s request to teach`}
            >
              Decline
            </button>
          </>
        )}
        <button
          type="button"
          className="btn btn-secondary h-9 px-3 text-sm"
          disabled={reset.isPending}
          onClick={() => reset.mutate(user._id, { onSuccess: (answer) => toast.success(answer.message) })}
          aria-label={`Send reset code to ${user.username}`}
        >
          Send reset code
        </button>
        {!isMe && (
          <>
            <button
              type="button"
              className="btn btn-secondary h-9 px-3 text-sm"
              disabled={update.isPending}
              // Enabling gives access back at once; disabling signs the person out everywhere, so it asks first.
              onClick={() => (user.disabled ? update.mutate({ id: user._id, disabled: false }) : setDisabling(true))}
              aria-label={`${user.disabled ? 'Enable' : 'Disable'} ${user.username}`}
            >
              {user.disabled ? 'Enable' : 'Disable'}
            </button>
            <ConfirmDialog
              open={disabling}
              title={`Disable ${user.username}?`}
              confirmLabel="Disable account"
              busyLabel="Disabling..."
              busy={update.isPending}
              onClose={() => setDisabling(false)}
              onConfirm={() =>
                update.mutate(
                  { id: user._id, disabled: true },
                  {
                    onSuccess: () => {
                      toast.success(`${user.username} is disabled.`);
                      setDisabling(false);
                    },
                  },
                )
              }
            >
              <p>
                <strong className="break-all">{user.email}</strong> is signed out on every device and cannot sign in
                until you enable the account again. Nothing is deleted.
              </p>
            </ConfirmDialog>
            <button
              type="button"
              className="btn btn-danger h-9 px-3 text-sm"
              onClick={onDelete}
              aria-label={`Delete ${user.username}`}
            >
              Delete
            </button>
          </>
        )}
      </div>
    </li>
  );
}
