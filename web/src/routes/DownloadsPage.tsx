import { t } from '@lib/i18n';
import { usePageTitle } from '@lib/use-page-title';
import { DownloadsList } from '../features/offline/components/DownloadsList';

/** Lectures saved on this device for offline viewing (docs/offline.md). */
export function DownloadsPage() {
  usePageTitle(t('offline.page.title'));
  return (
    <section className="mx-auto max-w-3xl">
      <h1 className="page-title">{t('offline.page.title')}</h1>
      <div className="mt-6">
        <DownloadsList />
      </div>
    </section>
  );
}
