/** A person's picture; its alt text is their name (theirs, never translated). */
export function Avatar({ src, name, size = 36 }: { src?: string; name: string; size?: number }) {
  return (
    <img
      src={src || '/placeholder-avatar.svg'}
      alt={name}
      translate="no"
      width={size}
      height={size}
      className="shrink-0 rounded-full bg-slate-200 object-cover ring-2 ring-white"
      style={{ width: size, height: size }}
      onError={(event) => {
        event.currentTarget.src = '/placeholder-avatar.svg';
      }}
    />
  );
}
