import { type KeyboardEvent, type ReactNode, useId, useRef } from 'react';

/**
 * Tabs that follow the ARIA tabs pattern: a tablist of buttons and the selected tab's panel. Only the selected tab
 * is a Tab stop; Left and Right (wrapping), Home and End move to another tab and select it.
 */
export function Tabs<Name extends string>({
  label,
  tabs,
  selected,
  onSelect,
  panelClassName,
  children,
}: {
  label: string;
  tabs: readonly Name[];
  selected: Name;
  onSelect: (name: Name) => void;
  panelClassName?: string;
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
        className="flex overflow-x-auto border-b border-slate-200"
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
            className={`-mb-px shrink-0 border-b-2 px-4 py-3 text-sm font-medium whitespace-nowrap ${
              selected === name
                ? 'border-indigo-600 text-indigo-700'
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
