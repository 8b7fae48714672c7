import { ApiError } from '@api/client';
import { LIMITS } from '@contract/limits';
import { useForm } from '@lib/form';
import { loadSchemas } from '@lib/form-check';
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
        toast.success(`${course.courseName} is ready. Share it with your students.`);
      },
      onError: (error) => toast.error(error instanceof ApiError ? error.message : 'Could not create the class.'),
    });
  }

  return (
    <Modal open={open} title="Create New Class" onClose={onClose}>
      <form onSubmit={onSubmit} onFocus={form.prefetch} className="flex flex-col gap-4">
        <Field
          label="Class name"
          id="new-class-name"
          placeholder="e.g. Physics 101"
          maxLength={LIMITS.courseNameMax}
          required
          {...form.bind('courseName', courseName, setCourseName)}
        />
        <Field
          label="Semester"
          id="new-class-semester"
          type="number"
          inputMode="numeric"
          min={LIMITS.semesterMin}
          max={LIMITS.semesterMax}
          placeholder={`Optional, ${LIMITS.semesterMin} to ${LIMITS.semesterMax}`}
          {...form.bind('semester', semester, setSemester)}
        />
        <ModalActions onCancel={onClose} busy={form.busy} label="Create Class" busyLabel="Creating..." />
      </form>
    </Modal>
  );
}
