import { ApiError } from '@api/client';
import { LIMITS } from '@contract/limits';
import { useForm } from '@lib/form';
import { loadSchemas } from '@lib/form-check';
import { t } from '@lib/i18n';
import { useSession } from '@lib/session';
import { toast } from '@lib/toast';
import { Field } from '@ui/Field';
import { Modal, ModalActions } from '@ui/Modal';
import { type FormEvent, useState } from 'react';
import { useCreateCourse } from '../api/courses';

/** The class routes' request schemas: the form is checked by the server's own rules before it is sent. */
const contract = () => loadSchemas(() => import('@contract/courses'));

export function CreateClassModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { user } = useSession();
  const [courseName, setCourseName] = useState('');
  const [semester, setSemester] = useState('');
  const form = useForm({
    schema: async () => (await contract()).createCourseBody,
    mutation: useCreateCourse(),
  });

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!user) return;
    const body = { courseName, teacherId: user._id, semester: semester ? Number(semester) : null };
    await form.submit(body, {
      onSuccess: (course) => {
        setCourseName('');
        setSemester('');
        onClose();
        toast.success(t('classes.create.ready', { course: course.courseName }));
      },
      onError: (error) => toast.error(error instanceof ApiError ? error.message : t('classes.create.failed')),
    });
  }

  return (
    <Modal open={open} title={t('classes.create.title')} onClose={onClose}>
      <form onSubmit={onSubmit} onFocus={form.prefetch} className="flex flex-col gap-4">
        <Field
          label={t('classes.create.name')}
          id="new-class-name"
          placeholder={t('classes.create.namePlaceholder')}
          maxLength={LIMITS.courseNameMax}
          required
          {...form.bind('courseName', courseName, setCourseName)}
        />
        <Field
          label={t('classes.create.semester')}
          id="new-class-semester"
          type="number"
          inputMode="numeric"
          min={LIMITS.semesterMin}
          max={LIMITS.semesterMax}
          placeholder={t('classes.create.semesterPlaceholder', { min: LIMITS.semesterMin, max: LIMITS.semesterMax })}
          {...form.bind('semester', semester, setSemester)}
        />
        <ModalActions
          onCancel={onClose}
          busy={form.busy}
          label={t('classes.create.submit')}
          busyLabel={t('classes.create.creating')}
        />
      </form>
    </Modal>
  );
}
