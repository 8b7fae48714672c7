import { t } from '@lib/i18n';

export function Spinner({ label = t('common.loading'), size = 32 }: { label?: string; size?: number }) {
  return (
    <output className="inline-flex items-center justify-center" aria-label={label}>
      <span
        className="animate-spin rounded-full border-4 border-indigo-200 border-t-indigo-600"
        style={{ width: size, height: size }}
      />
    </output>
  );
}

export function FullPageLoader() {
  return (
    <div className="flex min-h-[60vh] items-center justify-center">
      <Spinner />
    </div>
  );
}
