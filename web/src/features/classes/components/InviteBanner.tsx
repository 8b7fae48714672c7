import { ApiError } from '@api/client';
import { pendingInvite } from '@lib/pending-invite';
import { useState } from 'react';
import { useInvitePreview } from '../api/courses';

/** An invite link brought the visitor here: which class it is and whose, or that the link no longer works. */
export function InviteBanner({ signUp }: { signUp: boolean }) {
  const [code] = useState(pendingInvite.get);
  const preview = useInvitePreview(code);
  if (!code || preview.isPending) return null;
  if (preview.isError) {
    return (
      <p role="status" className="mb-4 rounded-xl bg-amber-50 p-3 text-sm text-amber-900">
        {preview.error instanceof ApiError && preview.error.status === 404
          ? 'This invite link no longer works. After you sign in, enter the class code your teacher gave you.'
          : 'You have an invite to a class: sign in to join it.'}
      </p>
    );
  }
  return (
    <div role="status" className="mb-4 rounded-xl bg-indigo-50 p-3 text-center text-sm text-indigo-900">
      <p className="font-semibold">You're invited to {preview.data.courseName}</p>
      <p className="mt-0.5">
        {preview.data.teacherName ? `${preview.data.teacherName}'s class. ` : ''}
        {signUp ? 'Create your account to join.' : 'Log in to join.'}
      </p>
    </div>
  );
}
