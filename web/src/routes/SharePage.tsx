import { Link, useParams } from 'react-router';
import { SharePanel } from '../components/SharePanel';
import { FullPageLoader } from '../components/Spinner';
import { useCourse } from '../state/use-course';
import { CourseError } from './CoursePage';

export function SharePage() {
  const { id } = useParams();
  const { course, setCourse, error } = useCourse(id);
  if (error) return <CourseError message={error} />;
  if (!course) return <FullPageLoader />;
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-6">
      <div>
        <Link to={`/classroom/${course._id}`} className="link text-sm">
          ← {course.courseName}
        </Link>
        <h1 className="page-title mt-1">Share {course.courseName}</h1>
      </div>
      <SharePanel course={course} onCodeChanged={setCourse} />
    </div>
  );
}
