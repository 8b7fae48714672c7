import { type ReactNode, useId } from 'react';

/** Tabs that follow the ARIA tab pattern: a tablist of buttons and the selected tab's panel. */
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
  return (
    <>
      <div role="tablist" aria-label={label} className="flex overflow-x-auto border-b border-slate-200">
        {tabs.map((name) => (
          <button
            key={name}
            type="button"
            role="tab"
            id={`${baseId}-${name}`}
            aria-selected={selected === name}
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
