import { useId, useState } from 'react';
import { AdminClasses } from '../components/admin/AdminClasses';
import { AdminServer } from '../components/admin/AdminServer';
import { AdminUsers } from '../components/admin/AdminUsers';
import { useSession } from '../state/session';
import { NotFoundPage } from './NotFoundPage';

const tabs = ['Users', 'Classes', 'Server'] as const;
type Tab = (typeof tabs)[number];

/** /admin: the administrator's console (the API refuses everyone else too). */
export function AdminPage() {
  const { user } = useSession();
  const [tab, setTab] = useState<Tab>('Users');
  const baseId = useId();
  if (!user?.isAdmin) return <NotFoundPage />;
  return (
    <section className="mx-auto max-w-4xl">
      <h1 className="page-title">Administration</h1>
      <div role="tablist" aria-label="Administration" className="mt-6 flex overflow-x-auto border-b border-slate-200">
        {tabs.map((name) => (
          <button
            key={name}
            type="button"
            role="tab"
            id={`${baseId}-${name}`}
            aria-selected={tab === name}
            aria-controls={`${baseId}-panel`}
            onClick={() => setTab(name)}
            className={`-mb-px shrink-0 border-b-2 px-4 py-3 text-sm font-medium ${
              tab === name
                ? 'border-indigo-600 text-indigo-700'
                : 'border-transparent text-slate-600 hover:text-slate-900'
            }`}
          >
            {name}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${baseId}-panel`} aria-labelledby={`${baseId}-${tab}`} className="pt-6">
        {tab === 'Users' && <AdminUsers />}
        {tab === 'Classes' && <AdminClasses />}
        {tab === 'Server' && <AdminServer />}
      </div>
    </section>
  );
}
