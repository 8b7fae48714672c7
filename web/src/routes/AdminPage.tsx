import { useSession } from '@lib/session';
import { usePageTitle } from '@lib/use-page-title';
import { Tabs } from '@ui/Tabs';
import { useState } from 'react';
import { AdminClasses } from '../features/admin/components/AdminClasses';
import { AdminServer } from '../features/admin/components/AdminServer';
import { AdminUsers } from '../features/admin/components/AdminUsers';
import { WaitingTeachersBadge } from '../features/admin/components/WaitingTeachersBadge';
import { NotFoundPage } from './NotFoundPage';

const tabs = ['Users', 'Classes', 'Server'] as const;
type Tab = (typeof tabs)[number];

/** /admin: the administrator's console (the API refuses everyone else too). */
export function AdminPage() {
  const { user } = useSession();
  usePageTitle(user?.isAdmin ? 'Administration' : null);
  const [tab, setTab] = useState<Tab>('Users');
  if (!user?.isAdmin) return <NotFoundPage />;
  return (
    <section className="mx-auto max-w-4xl">
      <h1 className="page-title">Administration</h1>
      <div className="mt-6">
        <Tabs
          label="Administration"
          tabs={tabs}
          selected={tab}
          onSelect={setTab}
          panelClassName="pt-6"
          badges={{ Users: <WaitingTeachersBadge className="ms-2" /> }}
        >
          {tab === 'Users' && <AdminUsers />}
          {tab === 'Classes' && <AdminClasses />}
          {tab === 'Server' && <AdminServer />}
        </Tabs>
      </div>
    </section>
  );
}
