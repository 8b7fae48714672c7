import { type KeyboardEvent, type ReactNode, useId, useRef } from 'react';

/**
 * Tabs that follow the ARIA tabs pattern: a tablist of buttons and the selected tab's panel. Only the selected tab
 * is a Tab stop; Left and Right (wrapping), Home and End move to another tab and select it. With `gridOnPhones`, a
 * phone shows the tabs as a 2-column grid of buttons, all in sight, instead of a row that scrolls sideways (for tab
 * names too long to fit one row at 375 px); from `sm` up they are the usual row.
 */
const rowTab = '-mb-px shrink-0 border-b-2 px-4 py-3';
/** A cell of the phone grid (a rounded button, the selected one tinted); the row's underlined tab from `sm` up. */
const phoneGridTab = 'rounded-lg px-3 py-2.5 sm:-mb-px sm:shrink-0 sm:rounded-none sm:border-b-2 sm:px-4 sm:py-3';

export function Tabs<Name extends string>({
  label,
  tabs,
  selected,
  onSelect,
  panelClassName,
  gridOnPhones = false,
  children,
}: {
  label: string;
  tabs: readonly Name[];
  selected: Name;
  onSelect: (name: Name) => void;
  panelClassName?: string;
  gridOnPhones?: boolean;
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
  return (
    <>
      <div
        ref={list}
        role="tablist"
        aria-label={label}
        className={
          gridOnPhones
            ? 'grid grid-cols-2 gap-1 border-b border-slate-200 p-2 sm:flex sm:gap-0 sm:p-0'
            : 'flex overflow-x-auto border-b border-slate-200'
        }
        onKeyDown={onKeyDown}
      >
        {tabs.map((name) => (
          <button
            key={name}
            type="button"
            role="tab"
            id={`${baseId}-${name}`}
            aria-selected={selected === name}
            tabIndex={selected === name ? 0 : -1}
            aria-controls={`${baseId}-panel`}
            onClick={() => onSelect(name)}
            className={`${gridOnPhones ? phoneGridTab : rowTab} text-sm font-medium whitespace-nowrap ${
              selected === name
                ? `border-indigo-600 text-indigo-700 ${gridOnPhones ? 'bg-indigo-50 sm:bg-transparent' : ''}`
                : 'border-transparent text-slate-600 hover:text-slate-900'
            }`}
          >
            {name}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${baseId}-panel`} aria-labelledby={`${baseId}-${selected}`} className={panelClassName}>
        {children}
      </div>
    </>
  );
}
