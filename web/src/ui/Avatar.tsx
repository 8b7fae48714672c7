/**
 * The picture of someone without one, drawn from the page itself: the server names it `/placeholder-avatar.svg`
 * (`PLACEHOLDER_AVATAR`, kept for other clients), a request of its own that a phone pays in headers on every first
 * visit to a class.
 */
const PLACEHOLDER = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" fill="#e0e7ff"/><circle cx="32" cy="25" r="11" fill="#818cf8"/><path d="M12 56c2-11 10-17 20-17s18 6 20 17z" fill="#818cf8"/></svg>',
)}`;

/** A person's picture; its alt text is their name (theirs, never translated). */
export function Avatar({ src, name, size = 36 }: { src?: string; name: string; size?: number }) {
  return (
    <img
      src={!src || src === '/placeholder-avatar.svg' ? PLACEHOLDER : src}
      alt={name}
      translate="no"
      width={size}
      height={size}
      className="shrink-0 rounded-full bg-slate-200 object-cover ring-2 ring-white"
      style={{ width: size, height: size }}
      onError={(event) => {
        if (event.currentTarget.src !== PLACEHOLDER) event.currentTarget.src = PLACEHOLDER;
      }}
    />
  );
}
