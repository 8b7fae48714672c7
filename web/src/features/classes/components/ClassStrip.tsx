import { t } from '@lib/i18n';
import { useStrip } from '../api/insight';

/**
 * For the teacher, over the lecture's seek bar (issue 33): a thin bar of how many students played each of its
 * 100 parts (its height), and how many played a part more than once (the darker shade over it). Where the class
 * skipped and where it went back to, at a glance. Left to right like the seek bar, in every language.
 */
export function ClassStrip({ lectureId }: { lectureId: string }) {
  const query = useStrip(lectureId);
  const data = query.data;
  if (!data || data.parts.length === 0) return null;
  const most = Math.max(1, data.students, ...data.parts);
  const played = data.parts.filter((count) => count > 0).length;
  const replayed = data.replays.filter((count) => count > 0).length;
  return (
    <svg
      className="pointer-events-none block h-2 w-full"
      viewBox={`0 0 ${data.parts.length} 1`}
      preserveAspectRatio="none"
      role="img"
      aria-label={t('insight.strip.label', { students: data.students, played, replayed })}
      data-testid="class-strip"
    >
      <path d={columns(data.parts, most)} className="fill-sky-300/80" />
      <path d={columns(data.replays, most)} className="fill-amber-400" />
    </svg>
  );
}

/** One path of columns, a part's height its count out of `most` (one shape instead of a hundred). */
function columns(counts: readonly number[], most: number) {
  return counts
    .map((count, index) => (count > 0 ? `M${index} 1V${(1 - count / most).toFixed(3)}H${index + 1}V1Z` : ''))
    .join('');
}
