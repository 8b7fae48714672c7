import type { CourseJson } from '@contract/courses';
import { t } from '@lib/i18n';
import { toast } from '@lib/toast';
import { useSetDownloadsAllowed } from '../api/offline';

/**
 * The teacher's per-class switch: may students save this class's lectures for offline viewing? Turning it off stops
 * new downloads, and copies saved inside the app are deleted at their next online check; an MP4 already saved
 * outside the app cannot be taken back (docs/offline.md).
 */
export function DownloadsSwitch({ course }: { course: CourseJson }) {
  const setAllowed = useSetDownloadsAllowed(course._id);
  return (
    <label className="flex items-center gap-2 text-sm text-slate-700">
      <input
        type="checkbox"
        className="size-4 accent-indigo-600"
        checked={course.downloadsAllowed}
        disabled={setAllowed.isPending}
        onChange={(event) =>
          setAllowed.mutate(event.target.checked, {
            onSuccess: (updated) =>
              toast.success(t(updated.downloadsAllowed ? 'offline.switch.on' : 'offline.switch.off')),
          })
        }
      />
      {t('offline.switch.label')}
    </label>
  );
}
