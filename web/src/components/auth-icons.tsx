import type { SVGProps } from 'react';

type IconProps = SVGProps<SVGSVGElement> & { size?: number };

/** Makes an icon component from its SVG paths (24×24, stroked with the text colour, hidden from screen readers). */
export function icon(paths: React.ReactNode) {
  // biome-ignore lint/correctness/noComponentHookFactories: each icon is made once, at module load
  return function Icon({ size = 20, ...props }: IconProps) {
    return (
      <svg
        width={size}
        height={size}
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth={2}
        strokeLinecap="round"
        strokeLinejoin="round"
        aria-hidden="true"
        {...props}
      >
        {paths}
      </svg>
    );
  };
}

export const EyeIcon = icon(
  <>
    <path d="M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12z" />
    <circle cx="12" cy="12" r="3" />
  </>,
);
export const EyeOffIcon = icon(
  <>
    <path d="M9.9 4.2A10.8 10.8 0 0 1 12 4c6.4 0 10 8 10 8a18.4 18.4 0 0 1-2.2 3.2M6.6 6.6A18 18 0 0 0 2 12s3.6 8 10 8a9.7 9.7 0 0 0 5.4-1.6" />
    <path d="m2 2 20 20M9.9 9.9a3 3 0 0 0 4.2 4.2" />
  </>,
);
export const CapIcon = icon(
  <>
    <path d="M22 10 12 5 2 10l10 5z" />
    <path d="M6 12v5c3 2 9 2 12 0v-5" />
  </>,
);
