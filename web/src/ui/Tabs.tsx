import { type KeyboardEvent, type ReactNode, useEffect, useId, useRef } from 'react';

/**
 * Tabs that follow the ARIA tabs pattern: a tablist of buttons and the selected tab's panel. Only the selected tab
 * is a Tab stop; Left and Right (wrapping), Home and End move to another tab and select it. The tabs are one row at
 * every width: `shortLabels` makes a phone's row fit (each tab keeps its whole name as its accessible name, and the
 * short one is a word of it, so speaking what is seen still works); a row that is still too long scrolls sideways
 * and keeps the selected tab in view.
 */
export function Tabs<Name extends string>({
  label,
  tabs,
  selected,
  onSelect,
  panelClassName,
  shortLabels,
  badges,
  children,
}: {
  label: string;
  tabs: readonly Name[];
  selected: Name;
  onSelect: (name: Name) => void;
  panelClassName?: string;
  /** What a tab shows below the `sm` breakpoint, when its name is too long for a phone's row. */
  shortLabels?: Partial<Record<Name, string>>;
  /** Shown after a tab's name (a count); it should carry its own words for screen readers. */
  badges?: Partial<Record<Name, ReactNode>>;
  children: ReactNode;
}) {
  const baseId = useId();
  const list = useRef<HTMLDivElement>(null);
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const at = tabs.indexOf(selected);
    const to =
      event.key === 'ArrowRight'
        ? (at + 1) % tabs.length
        : event.key === 'ArrowLeft'
          ? (at - 1 + tabs.length) % tabs.length
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? tabs.length - 1
              : -1;
    const next = tabs[to];
    if (next === undefined) return;
    event.preventDefault();
    onSelect(next);
    list.current?.querySelectorAll<HTMLElement>('[role="tab"]')[to]?.focus();
  };
  // Sideways only: scrollIntoView would also scroll the page to a tab list below the fold.
  useEffect(() => {
    const row = list.current;
    const tab = row?.querySelectorAll<HTMLElement>('[role="tab"]')[tabs.indexOf(selected)];
    if (!row || !tab) return;
    if (tab.offsetLeft < row.scrollLeft) row.scrollLeft = tab.offsetLeft;
    else if (tab.offsetLeft + tab.offsetWidth > row.scrollLeft + row.clientWidth)
      row.scrollLeft = tab.offsetLeft + tab.offsetWidth - row.clientWidth;
  }, [tabs, selected]);
  return (
    <>
      <div
        ref={list}
        role="tablist"
        aria-label={label}
        // The rule under the row is a shadow, so the selected tab's underline covers it without sticking out of the
        // row (a tab 1 px below it gave WebKit a vertical scrollbar beside the tabs); focus rings are drawn inside.
        className="relative flex overflow-x-auto overflow-y-hidden shadow-[inset_0_-1px_0_var(--color-slate-200)]"
        onKeyDown={onKeyDown}
      >
        {tabs.map((name) => {
          const short = shortLabels?.[name];
          return (
            <button
              key={name}
              type="button"
              role="tab"
              id={`${baseId}-${name}`}
              aria-selected={selected === name}
              tabIndex={selected === name ? 0 : -1}
              aria-controls={`${baseId}-panel`}
              onClick={() => onSelect(name)}
              className={`relative shrink-0 border-b-2 px-3 py-3 text-sm font-medium whitespace-nowrap focus-visible:-outline-offset-2 sm:px-4 ${
                selected === name
                  ? 'border-indigo-600 text-indigo-700'
                  : 'border-transparent text-slate-600 hover:text-slate-900'
              }`}
            >
              {short ? (
                <>
                  <span className="max-sm:sr-only">{name}</span>
                  <span className="sm:hidden" aria-hidden="true">
                    {short}
                  </span>
                </>
              ) : (
                name
              )}
              {badges?.[name]}
            </button>
          );
        })}
      </div>
      <div role="tabpanel" id={`${baseId}-panel`} aria-labelledby={`${baseId}-${selected}`} className={panelClassName}>
        {children}
      </div>
    </>
  );
}
