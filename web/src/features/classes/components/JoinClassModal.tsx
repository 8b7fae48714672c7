import { type FormEvent, useState } from 'react';
import { LIMITS } from '../../../../../src/contract/limits';
import { toast } from '../../../lib/toast';
import { FormError } from '../../../ui/FormError';
import { Modal, ModalActions } from '../../../ui/Modal';
import { useSession } from '../../../lib/session';
import { useEnroll } from '../api/courses';

export function JoinClassModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { user } = useSession();
  const enroll = useEnroll();
  const [classCode, setClassCode] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  const close = () => {
    setError('');
    setClassCode('');
    onClose();
  };

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!user) return;
    setBusy(true);
    setError('');
    try {
      const enrollment = await enroll.mutateAsync({ studentId: user._id, classCode });
      toast.success(`You joined ${enrollment.course.courseName}.`);
      close();
    } catch {
      setError('Failed to join classroom. Please check the class code.');
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal open={open} title="Join Classroom" onClose={close}>
      <form onSubmit={onSubmit} className="flex flex-col gap-4">
        <div className="field">
          <label htmlFor="join-class-code">Class code</label>
          <input
            id="join-class-code"
            className="input font-mono text-lg tracking-widest uppercase placeholder:tracking-normal placeholder:normal-case"
            value={classCode}
            onChange={(event) => setClassCode(event.target.value)}
            placeholder="e.g. K7PQ2XM"
            autoCapitalize="characters"
            autoComplete="off"
            spellCheck={false}
            maxLength={LIMITS.inviteCodeInputMax}
            required
          />
          <p className="text-xs text-slate-500">Ask your teacher for the code shown in the class.</p>
        </div>
        <FormError message={error} />
        <ModalActions onCancel={close} busy={busy} label="Join" busyLabel="Joining..." />
      </form>
    </Modal>
  );
}
