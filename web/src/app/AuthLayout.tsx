import type { ReactNode } from 'react';

export function AuthLayout({ children }: { children: ReactNode }) {
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center bg-gradient-to-br from-indigo-50 via-white to-sky-50 px-4 py-10">
      <div className="mb-6 flex items-center gap-2 text-slate-900">
        <span className="flex size-10 items-center justify-center rounded-xl bg-indigo-600 text-white shadow-sm">
          {/* Drawn here rather than taken from icons.tsx: the sign-in page then loads no icon chunk (bench:web). */}
          <svg
            width={22}
            height={22}
            viewBox="0 0 24 24"
            fill="none"
            stroke="currentColor"
            strokeWidth={2}
            strokeLinecap="round"
            strokeLinejoin="round"
            aria-hidden="true"
          >
            <path d="M22 10 12 5 2 10l10 5z" />
            <path d="M6 12v5c3 2 9 2 12 0v-5" />
          </svg>
        </span>
        <span className="text-2xl font-semibold tracking-tight">Classroom</span>
      </div>
      <div className="w-full max-w-md rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
        {children}
      </div>
    </main>
  );
}
