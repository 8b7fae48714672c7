import { t } from '@lib/i18n';
import { useSession } from '@lib/session';
import { Avatar } from '@ui/Avatar';
import { CapIcon, DownloadIcon, HistoryIcon, HomeIcon, MenuIcon, SettingsIcon, ShieldIcon } from '@ui/icons';
import { PageLoadBoundary } from '@ui/PageLoadBoundary';
import { Spinner } from '@ui/Spinner';
import { Suspense, useEffect, useRef, useState } from 'react';
import { Link, NavLink, Outlet, useLocation } from 'react-router';
import { WaitingTeachersBadge } from '../features/admin/components/WaitingTeachersBadge';
import { useNotesSync } from '../features/notes/hooks/useNotesSync';
import { useOfflineSync } from '../features/offline/hooks/useOfflineSync';
import { useCoverageSync } from '../features/player/hooks/useCoverageSync';
import { useAnswerSync } from '../features/questions/hooks/useAnswerSync';
import { SearchBox } from '../features/search/components/SearchBox';
import { UploadTray } from '../features/uploads/components/UploadTray';

/**
 * Below this width the navigation starts folded and opens over the page: a drawer on phones, a rail of icons on
 * tablets (open beside the page, it left a tablet's content 450 px).
 */
const NARROW_BREAKPOINT = 1024;
const isNarrow = () => window.innerWidth < NARROW_BREAKPOINT;

/** The menu's pages; each label is read when drawn (the messages load after this module). */
const navItems = [
  { to: '/classroom', label: () => t('shell.nav.home'), Icon: HomeIcon },
  { to: '/history', label: () => t('shell.nav.history'), Icon: HistoryIcon },
  { to: '/downloads', label: () => t('shell.nav.downloads'), Icon: DownloadIcon },
  { to: '/settings', label: () => t('shell.nav.settings'), Icon: SettingsIcon },
];
/** Only administrators see it. */
const adminItem = { to: '/admin', label: () => t('shell.nav.admin'), Icon: ShieldIcon };

/** Header with brand and avatar, a collapsible side navigation, and the page. */
export function AppShell() {
  const { user } = useSession();
  // The service worker and the online check of saved lectures; notes written offline (docs/offline.md).
  useOfflineSync();
  useNotesSync();
  // What was played offline, sent when the connection is back (issue 33).
  useCoverageSync();
  useAnswerSync();
  const [collapsed, setCollapsed] = useState(isNarrow);
  const [hovered, setHovered] = useState(false);
  const location = useLocation();
  const expanded = !collapsed || hovered;

  // Phones and tablets fold the navigation away after every route change.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on route change by design
  useEffect(() => {
    if (isNarrow()) {
      setCollapsed(true);
      setHovered(false);
    }
  }, [location.pathname]);

  // On a phone or tablet the open navigation lies over the page: Escape closes it and gives the focus back to the
  // menu button.
  const menuButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (collapsed) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented || !isNarrow()) return;
      setCollapsed(true);
      setHovered(false);
      menuButton.current?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [collapsed]);

  const toggle = () => {
    setCollapsed((value) => !value);
    setHovered(false);
  };

  return (
    <div className="min-h-dvh bg-slate-50">
      {/* The first Tab stop: straight past the header and the menu to the page's content. */}
      <a
        href="#main-content"
        className="sr-only z-50 rounded-lg bg-indigo-600 px-4 py-2 font-medium text-white focus:not-sr-only focus:fixed focus:top-2 focus:start-2"
      >
        {t('shell.skipToContent')}
      </a>
      <header className="sticky top-0 z-30 flex h-14 items-center gap-2 border-b border-slate-200 bg-white/90 px-2 backdrop-blur sm:px-4">
        <button
          ref={menuButton}
          type="button"
          className="icon-btn"
          onClick={toggle}
          aria-label={t(collapsed ? 'shell.expandNav' : 'shell.collapseNav')}
          aria-expanded={!collapsed}
          aria-controls="side-nav"
        >
          <MenuIcon />
        </button>
        <Link to="/classroom" className="flex items-center gap-2 font-semibold text-slate-900">
          <span className="flex size-8 items-center justify-center rounded-lg bg-indigo-600 text-white">
            <CapIcon size={18} />
          </span>
          <span className="text-lg tracking-tight max-sm:sr-only" translate="no">
            Classroom
          </span>
        </Link>
        <div className="flex min-w-0 flex-1 justify-center px-1 sm:px-4">
          <SearchBox className="w-full max-w-md" placeholder={t('shell.search')} label={t('shell.searchLabel')} />
        </div>
        {user && (
          <Link to="/settings" className="rounded-full focus-visible:outline-2" aria-label={t('shell.openSettings')}>
            <Avatar src={user.profilePictureImageLink} name={user.username} size={36} />
          </Link>
        )}
      </header>
      <div className="flex">
        <nav
          id="side-nav"
          aria-label={t('shell.mainNav')}
          onMouseEnter={() => setHovered(true)}
          onMouseLeave={() => setHovered(false)}
          // Folded on a phone, it slides out past the start side: the left, or the right in a right-to-left language.
          className={`fixed start-0 top-14 bottom-0 z-20 overflow-hidden border-e border-slate-200 bg-white transition-[width,transform] duration-200 ${
            expanded ? 'w-64 shadow-lg lg:shadow-none' : 'w-16 max-md:ltr:-translate-x-full max-md:rtl:translate-x-full'
          }`}
        >
          <ul className="flex flex-col gap-1 p-2">
            {[...navItems, ...(user?.isAdmin ? [adminItem] : [])].map(({ to, label: words, Icon }) => {
              const label = words();
              return (
                <li key={to}>
                  <NavLink
                    to={to}
                    onClick={() => {
                      if (isNarrow()) {
                        setCollapsed(true);
                        setHovered(false);
                      }
                    }}
                    className={({ isActive }) =>
                      `relative flex h-11 items-center gap-3 rounded-xl px-3 text-sm font-medium transition-colors ${
                        isActive
                          ? 'bg-indigo-50 text-indigo-700'
                          : 'text-slate-600 hover:bg-slate-100 hover:text-slate-900'
                      }`
                    }
                    title={label}
                  >
                    <Icon className="shrink-0" />
                    <span className={expanded ? 'truncate' : 'sr-only'}>{label}</span>
                    {to === adminItem.to && (
                      <WaitingTeachersBadge className={expanded ? 'ms-auto' : 'absolute end-0.5 top-0.5'} />
                    )}
                  </NavLink>
                </li>
              );
            })}
          </ul>
        </nav>
        {!collapsed && (
          // On phones and tablets the open navigation lies over the page; a tap beside it closes it.
          <button
            type="button"
            aria-label={t('shell.closeNav')}
            className="fixed inset-0 top-14 z-10 bg-slate-900/30 lg:hidden"
            onClick={toggle}
          />
        )}
        <main
          id="main-content"
          tabIndex={-1}
          className={`min-w-0 flex-1 focus:outline-none transition-[padding] duration-200 md:ps-16 ${collapsed ? '' : 'lg:ps-64'}`}
        >
          <div className="mx-auto max-w-7xl p-4 sm:p-6">
            {/* Uploads dock here, in the page's flow: above the page, over none of its controls. */}
            <UploadTray />
            {/* A screen's code loads inside the shell, which stays where it is meanwhile. */}
            <PageLoadBoundary resetKey={location.pathname}>
              <Suspense
                fallback={
                  <div className="flex justify-center py-16">
                    <Spinner />
                  </div>
                }
              >
                <Outlet />
              </Suspense>
            </PageLoadBoundary>
          </div>
        </main>
      </div>
    </div>
  );
}
