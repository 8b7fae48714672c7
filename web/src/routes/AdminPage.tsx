import { t } from '@lib/i18n';
import { useSession } from '@lib/session';
import { usePageTitle } from '@lib/use-page-title';
import { Tabs } from '@ui/Tabs';
import { useState } from 'react';
import { AdminClasses } from '../features/admin/components/AdminClasses';
import { AdminServer } from '../features/admin/components/AdminServer';
import { AdminUsers } from '../features/admin/components/AdminUsers';
import { WaitingTeachersBadge } from '../features/admin/components/WaitingTeachersBadge';
import { AdminLms } from '../features/lti/components/AdminLms';
import { NotFoundPage } from './NotFoundPage';

const tabs = ['users', 'classes', 'server', 'lms'] as const;
type Tab = (typeof tabs)[number];
/** Each tab's name, read when drawn (the messages load after this module). */
const tabLabels = (): Record<Tab, string> => ({
  users: t('admin.tab.users'),
  classes: t('admin.tab.classes'),
  server: t('admin.tab.server'),
  lms: t('admin.tab.lms'),
});

/** /admin: the administrator's console (the API refuses everyone else too). */
export function AdminPage() {
  const { user } = useSession();
  usePageTitle(user?.isAdmin ? t('admin.title') : null);
  const [tab, setTab] = useState<Tab>('users');
  if (!user?.isAdmin) return <NotFoundPage />;
  return (
    <section className="mx-auto max-w-4xl">
      <h1 className="page-title">{t('admin.title')}</h1>
      <div className="mt-6">
        <Tabs
          label={t('admin.title')}
          tabs={tabs}
          labels={tabLabels()}
          selected={tab}
          onSelect={setTab}
          panelClassName="pt-6"
          badges={{ users: <WaitingTeachersBadge className="ms-2" /> }}
        >
          {tab === 'users' && <AdminUsers />}
          {tab === 'classes' && <AdminClasses />}
          {tab === 'server' && <AdminServer />}
          {tab === 'lms' && <AdminLms />}
        </Tabs>
      </div>
    </section>
  );
}
