import { HistoryIcon } from '../components/icons';

export function HistoryPage() {
  return (
    <section>
      <h1 className="page-title">History</h1>
      <div className="empty-state mt-6">
        <HistoryIcon size={40} className="text-indigo-400" />
        <p className="mt-3 font-medium text-slate-800">Nothing here yet</p>
        <p className="mt-1 text-sm text-slate-600">Lectures you watch will appear here, with how far you got.</p>
      </div>
    </section>
  );
}
