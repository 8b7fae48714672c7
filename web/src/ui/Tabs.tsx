import { type KeyboardEvent, type ReactNode, useEffect, useId, useRef } from 'react';

/**
 * Tabs that follow the ARIA tabs pattern: a tablist of buttons and the selected tab's panel. Only the selected tab
 * is a Tab stop; Left and Right (wrapping, mirrored right to left), Home and End move to another tab and select it. The tabs are one row at
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
  labels,
  shortLabels,
  badges,
  children,
}: {
  label: string;
  /** Each tab's name in the code (its id); what it shows is `labels[name]` when given. */
  tabs: readonly Name[];
  selected: Name;
  onSelect: (name: Name) => void;
  panelClassName?: string;
  /** Each tab's words, translated (the name itself when left out). */
  labels?: Partial<Record<Name, string>>;
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
    // Right to left, the next tab is the one on the left.
    const rtl = getComputedStyle(event.currentTarget).direction === 'rtl';
    const nextKey = rtl ? 'ArrowLeft' : 'ArrowRight';
    const previousKey = rtl ? 'ArrowRight' : 'ArrowLeft';
    const to =
      event.key === nextKey
        ? (at + 1) % tabs.length
        : event.key === previousKey
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
  // Sideways only: scrollIntoView would also scroll the page to a tab list below the fold. Measured on screen, so
  // it holds right to left too (where scrollLeft counts down from 0).
  useEffect(() => {
    const row = list.current;
    const tab = row?.querySelectorAll<HTMLElement>('[role="tab"]')[tabs.indexOf(selected)];
    if (!row || !tab) return;
    const shown = row.getBoundingClientRect();
    const box = tab.getBoundingClientRect();
    if (box.left < shown.left) row.scrollLeft -= shown.left - box.left;
    else if (box.right > shown.right) row.scrollLeft += box.right - shown.right;
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
          const words = labels?.[name] ?? name;
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
                  <span className="max-sm:sr-only">{words}</span>
                  <span className="sm:hidden" aria-hidden="true">
                    {short}
                  </span>
                </>
              ) : (
                words
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
