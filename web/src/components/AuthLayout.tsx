import type { ReactNode } from 'react';
import { CapIcon } from './auth-icons';

export function AuthLayout({ children }: { children: ReactNode }) {
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center bg-gradient-to-br from-indigo-50 via-white to-sky-50 px-4 py-10">
      <div className="mb-6 flex items-center gap-2 text-slate-900">
        <span className="flex size-10 items-center justify-center rounded-xl bg-indigo-600 text-white shadow-sm">
          <CapIcon size={22} />
        </span>
        <span className="text-2xl font-semibold tracking-tight">Classroom</span>
      </div>
      <div className="w-full max-w-md rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
        {children}
      </div>
    </main>
  );
}
