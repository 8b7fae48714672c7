import { ApiError } from '@api/client';
import { rich, t } from '@lib/i18n';
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
          ? t('classes.invite.dead')
          : t('classes.invite.generic')}
      </p>
    );
  }
  return (
    <div role="status" className="mb-4 rounded-xl bg-indigo-50 p-3 text-center text-sm text-indigo-900">
      <p className="font-semibold">
        {rich(t('classes.invite.title', { course: preview.data.courseName }), [
          (course) => (
            <span key="course" translate="no">
              {course}
            </span>
          ),
        ])}
      </p>
      <p className="mt-0.5">
        {preview.data.teacherName && (
          <>
            {rich(t('classes.invite.teacherClass', { teacher: preview.data.teacherName }), [
              (teacher) => (
                <span key="teacher" translate="no">
                  {teacher}
                </span>
              ),
            ])}{' '}
          </>
        )}
        {t(signUp ? 'classes.invite.signUp' : 'classes.invite.logIn')}
      </p>
    </div>
  );
}
