import { t } from '@lib/i18n';

/**
 * A lecture's 100 parts as one bar (issue 33): a part played once in the light shade, played again in the dark
 * one, never played left empty. Time runs left to right as on the player's seek bar, in every language.
 */
export function PartsBar({ parts, className = 'h-2' }: { parts: readonly number[]; className?: string }) {
  const played = parts.filter((count) => count > 0).length;
  const replayed = parts.filter((count) => count > 1).length;
  const runs = runsOf(parts.map((count) => Math.min(count, 2)));
  return (
    <svg
      className={`block w-full overflow-hidden rounded-full bg-slate-200 ${className}`}
      viewBox={`0 0 ${parts.length || 1} 1`}
      preserveAspectRatio="none"
      role="img"
      aria-label={t('insight.parts.label', { played, total: parts.length, replayed })}
      data-testid="parts-bar"
      data-played={played}
    >
      {runs
        .filter((run) => run.value > 0)
        .map((run) => (
          <rect
            key={run.start}
            x={run.start}
            y={0}
            width={run.length}
            height={1}
            className={run.value > 1 ? 'fill-emerald-700' : 'fill-emerald-400'}
          />
        ))}
    </svg>
  );
}

/** Consecutive equal values as runs: fewer shapes than one per part. */
export function runsOf(values: readonly number[]) {
  const runs: { start: number; length: number; value: number }[] = [];
  values.forEach((value, index) => {
    const last = runs.at(-1);
    if (last && last.value === value) last.length += 1;
    else runs.push({ start: index, length: 1, value });
  });
  return runs;
}
