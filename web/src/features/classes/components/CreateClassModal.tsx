import { type FormEvent, useState } from 'react';
import { LIMITS } from '../../../../../src/contract/limits';
import { ApiError } from '../../../api/client';
import { loadSchemas, problemOf } from '../../../lib/form-check';
import { toast } from '../../../lib/toast';
import { Modal, ModalActions } from '../../../ui/Modal';
import { useSession } from '../../../lib/session';
import { useCreateCourse } from '../api/courses';

/** The class routes' request schemas: the form is checked by the server's own rules before it is sent. */
const contract = () => loadSchemas(() => import('../../../../../src/contract/courses'));

export function CreateClassModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { user } = useSession();
  const createCourse = useCreateCourse();
  const [courseName, setCourseName] = useState('');
  const [semester, setSemester] = useState('');
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!user) return;
    const body = { courseName, teacherId: user._id, semester: semester ? Number(semester) : null };
    const problem = await problemOf((await contract()).createCourseBody, body);
    if (problem) {
      toast.error(problem);
      return;
    }
    setBusy(true);
    try {
      const course = await createCourse.mutateAsync(body);
      setCourseName('');
      setSemester('');
      onClose();
      toast.success(`${course.courseName} is ready. Share it with your students.`);
    } catch (error) {
      toast.error(error instanceof ApiError ? error.message : 'Could not create the class.');
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal open={open} title="Create New Class" onClose={onClose}>
      <form onSubmit={onSubmit} onFocus={() => void contract()} className="flex flex-col gap-4">
        <div className="field">
          <label htmlFor="new-class-name">Class name</label>
          <input
            id="new-class-name"
            className="input"
            value={courseName}
            onChange={(event) => setCourseName(event.target.value)}
            placeholder="e.g. Physics 101"
            maxLength={LIMITS.courseNameMax}
            required
          />
        </div>
        <div className="field">
          <label htmlFor="new-class-semester">Semester</label>
          <input
            id="new-class-semester"
            className="input"
            type="number"
            inputMode="numeric"
            min={LIMITS.semesterMin}
            max={LIMITS.semesterMax}
            value={semester}
            onChange={(event) => setSemester(event.target.value)}
            placeholder={`Optional, ${LIMITS.semesterMin} to ${LIMITS.semesterMax}`}
          />
        </div>
        <ModalActions onCancel={onClose} busy={busy} label="Create Class" busyLabel="Creating..." />
      </form>
    </Modal>
  );
}
