import { LIMITS } from '@contract/limits';
import { useForm } from '@lib/form';
import { loadSchemas } from '@lib/form-check';
import { t } from '@lib/i18n';
import { useSession } from '@lib/session';
import { toast } from '@lib/toast';
import { Field } from '@ui/Field';
import { FormError } from '@ui/FormError';
import { Modal, ModalActions } from '@ui/Modal';
import { type FormEvent, useState } from 'react';
import { useEnroll } from '../api/courses';

/** The enrollment routes' request schemas: the code is checked by the server's own rule before it is sent. */
const contract = () => loadSchemas(() => import('@contract/courses'));

export function JoinClassModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { user } = useSession();
  const [classCode, setClassCode] = useState('');
  const [error, setError] = useState('');
  const form = useForm({ schema: async () => (await contract()).enrollBody, mutation: useEnroll() });

  const close = () => {
    setError('');
    setClassCode('');
    form.clear();
    onClose();
  };

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!user) return;
    setError('');
    await form.submit(
      { studentId: user._id, classCode },
      {
        onSuccess: (enrollment) => {
          toast.success(t('classes.join.joined', { course: enrollment.course.courseName }));
          close();
        },
        onError: () => setError(t('classes.join.failed')),
      },
    );
  }

  return (
    <Modal open={open} title={t('classes.join.title')} onClose={close}>
      <form onSubmit={onSubmit} onFocus={form.prefetch} className="flex flex-col gap-4">
        <Field
          label={t('classes.classCode')}
          id="join-class-code"
          className="font-mono text-lg tracking-widest uppercase placeholder:tracking-normal placeholder:normal-case"
          value={classCode}
          onValue={setClassCode}
          placeholder={t('classes.join.placeholder')}
          autoCapitalize="characters"
          autoComplete="off"
          spellCheck={false}
          maxLength={LIMITS.inviteCodeInputMax}
          required
          hint={t('classes.join.hint')}
          problem={form.problems.classCode}
        />
        <FormError message={error} />
        <ModalActions
          onCancel={close}
          busy={form.busy}
          label={t('classes.join.submit')}
          busyLabel={t('classes.join.joining')}
        />
      </form>
    </Modal>
  );
}
