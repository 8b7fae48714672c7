import { rich, t } from '@lib/i18n';
import { usePageTitle } from '@lib/use-page-title';
import { FullPageLoader } from '@ui/Spinner';
import { Link, useParams } from 'react-router';
import { useCourse } from '../features/classes/api/courses';
import { SharePanel } from '../features/classes/components/SharePanel';
import { CourseLoadError } from './CoursePage';

export function SharePage() {
  const { id } = useParams();
  const query = useCourse(id ?? '');
  usePageTitle(query.data && t('share.title', { name: query.data.courseName }));
  if (!query.data && query.isError) return <CourseLoadError query={query} />;
  if (!query.data) return <FullPageLoader />;
  const course = query.data;
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-6">
      <div>
        <Link to={`/classroom/${course._id}`} className="link inline-flex items-center gap-1 text-sm">
          <span aria-hidden="true" className="inline-block rtl:-scale-x-100">
            ←
          </span>
          <span translate="no">{course.courseName}</span>
        </Link>
        <h1 className="page-title mt-1">
          {rich(t('share.heading', { name: course.courseName }), [
            (words) => (
              <span key="name" translate="no">
                {words}
              </span>
            ),
          ])}
        </h1>
      </div>
      <SharePanel course={course} />
    </div>
  );
}
