/** The player's own icons (the shared ones are in ui/icons). */
export function CaptionsIcon({ on }: { on: boolean }) {
  // "CC" drawn as two arcs, not text: the button's name is its label alone.
  return (
    <svg width={22} height={22} viewBox="0 0 24 24" fill="none" strokeWidth={2} aria-hidden="true">
      <rect x="2.5" y="5" width="19" height="14" rx="2.5" stroke="currentColor" fill={on ? 'currentColor' : 'none'} />
      <path
        d="M10.3 10.2a2.4 2.4 0 1 0 0 3.6M17.3 10.2a2.4 2.4 0 1 0 0 3.6"
        stroke={on ? 'black' : 'currentColor'}
        strokeWidth={1.8}
        strokeLinecap="round"
      />
    </svg>
  );
}

export function PictureInPictureIcon() {
  return (
    <svg
      width={20}
      height={20}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      aria-hidden="true"
    >
      <rect x="3" y="5" width="18" height="14" rx="2" />
      <rect x="12" y="11" width="7" height="6" rx="1" fill="currentColor" />
    </svg>
  );
}
