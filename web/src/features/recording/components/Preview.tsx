import { t } from '@lib/i18n';
import { type KeyboardEvent, type PointerEvent, type RefObject, useEffect, useRef, useState } from 'react';
import { type BubblePlace, clampBubble, nudgeBubble } from '../state/compose';

/** A live stream in a muted video (the teacher's own microphone is never played back). */
export function LiveVideo({ stream, label }: { stream: MediaStream | null; label: string }) {
  const ref = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    const video = ref.current;
    if (!video) return;
    video.srcObject = stream;
    if (stream) void video.play().catch(() => {});
  }, [stream]);
  return (
    <video
      ref={ref}
      aria-label={label}
      dir="ltr"
      muted
      playsInline
      className="aspect-video w-full rounded-lg bg-slate-900 object-contain"
    />
  );
}

/**
 * The screen with the camera bubble as it will be recorded (the composition's own canvas), and a handle over the
 * bubble the teacher drags with a pointer or moves with the arrow keys.
 */
export function ComposedPreview({ canvas, bubble }: { canvas: HTMLCanvasElement; bubble: RefObject<BubblePlace> }) {
  const frame = useRef<HTMLDivElement>(null);
  const [place, setPlace] = useState(bubble.current);
  const dragging = useRef(false);
  useEffect(() => {
    const holder = frame.current;
    if (!holder) return;
    canvas.className = 'block h-auto w-full rounded-lg bg-slate-900';
    canvas.setAttribute('aria-hidden', 'true');
    holder.prepend(canvas);
    return () => canvas.remove();
  }, [canvas]);
  const move = (next: BubblePlace) => {
    const kept = clampBubble(next, canvas.width, canvas.height);
    bubble.current = kept;
    setPlace(kept);
  };
  const onPointer = (event: PointerEvent<HTMLButtonElement>) => {
    if (!dragging.current || !frame.current) return;
    const box = frame.current.getBoundingClientRect();
    move({ ...place, x: (event.clientX - box.left) / box.width, y: (event.clientY - box.top) / box.height });
  };
  const onKey = (event: KeyboardEvent<HTMLButtonElement>) => {
    const next = nudgeBubble(place, event.key, canvas.width, canvas.height);
    if (!next) return;
    event.preventDefault();
    move(next);
  };
  const diameterShare = (place.size * canvas.height) / canvas.width;
  return (
    // The picture is the recording's own: left to right in every language.
    <div ref={frame} dir="ltr" className="relative">
      <button
        type="button"
        aria-label={t('recording.setup.bubble')}
        className="absolute aspect-square touch-none rounded-full outline-offset-2 cursor-grab active:cursor-grabbing"
        style={{
          left: `${(place.x - diameterShare / 2) * 100}%`,
          top: `${(place.y - place.size / 2) * 100}%`,
          width: `${diameterShare * 100}%`,
        }}
        onPointerDown={(event) => {
          dragging.current = true;
          event.currentTarget.setPointerCapture(event.pointerId);
        }}
        onPointerMove={onPointer}
        onPointerUp={() => {
          dragging.current = false;
        }}
        onKeyDown={onKey}
      />
    </div>
  );
}
