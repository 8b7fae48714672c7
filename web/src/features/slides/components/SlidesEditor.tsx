import type { LectureJson as Lecture } from '@contract/lectures';
import { LIMITS } from '@contract/limits';
import { formatClock } from '@lib/format';
import { t } from '@lib/i18n';
import { toast } from '@lib/toast';
import { type FormEvent, useId, useState } from 'react';
import {
  type Slide,
  slideLabel,
  slideName,
  useChangeSlide,
  useLectureSlides,
  useSwitchSlideIndex,
} from '../api/slides';

/**
 * The teacher's slide index controls, in the Edit Topic modal under the chapters: switch the index off (or on) for
 * this lecture, hide a mark that is wrong, give a slide a title (a titled slide is a chapter). A refused or failed
 * change is said in a toast (the mutations' default).
 */
export function SlidesEditor({ lecture }: { lecture: Lecture }) {
  const { state, slides } = useLectureSlides(lecture);
  const switchIndex = useSwitchSlideIndex(lecture);
  const id = useId();
  if (state === null) return null;

  const onSwitch = (enabled: boolean) =>
    switchIndex.mutate(enabled, {
      onSuccess: () => toast.success(t(enabled ? 'slides.editor.turnedOn' : 'slides.editor.turnedOff')),
    });

  return (
    <section aria-labelledby={`${id}-heading`} className="mt-6 flex flex-col gap-3 border-t border-slate-200 pt-4">
      <h3 id={`${id}-heading`} className="text-sm font-semibold text-slate-900">
        {t('slides.editor.heading')}
      </h3>
      <p className="text-sm text-slate-600" data-testid="slide-index-state">
        {t(
          state === 'pending'
            ? 'slides.making'
            : state === 'off'
              ? 'slides.editor.state.off'
              : state === 'none'
                ? 'slides.editor.state.none'
                : 'slides.editor.state.ready',
        )}
      </p>
      {(state === 'ready' || state === 'off') && slides.length > 0 && (
        <ol className="flex max-h-80 flex-col gap-2 overflow-y-auto" aria-label={t('slides.editor.list')}>
          {slides.map((slide, index) => (
            <SlideRow key={slide.id ?? slide.thumbnail} lecture={lecture} slide={slide} position={index + 1} />
          ))}
        </ol>
      )}
      {(state === 'ready' || state === 'off' || state === 'pending') && (
        <button
          type="button"
          className="btn btn-secondary self-start"
          disabled={switchIndex.isPending}
          onClick={() => onSwitch(state === 'off')}
        >
          {t(state === 'off' ? 'slides.editor.turnOn' : 'slides.editor.turnOff')}
        </button>
      )}
    </section>
  );
}

/** `position`: the slide's place in the list (1 first), which its Save button names. */
function SlideRow({ lecture, slide, position }: { lecture: Lecture; slide: Slide; position: number }) {
  const change = useChangeSlide(lecture);
  const [title, setTitle] = useState(slide.title ?? '');
  const time = formatClock(slide.seconds);
  if (!slide.id) return null;
  const slideId = slide.id;

  function onTitle(event: FormEvent) {
    event.preventDefault();
    const next = title.trim() || null;
    change.mutate(
      { slideId, title: next },
      {
        onSuccess: () =>
          toast.success(
            next ? t('slides.editor.titled', { time, title: next }) : t('slides.editor.titleRemoved', { time }),
          ),
      },
    );
  }

  return (
    <li className={`flex gap-3 rounded-lg border border-slate-200 p-2 ${slide.hidden ? 'bg-slate-50' : ''}`}>
      {/* self-start: stretched to the row's height, the 16:9 box had cut the slide's sides off. */}
      <span className="block aspect-video w-24 shrink-0 self-start overflow-hidden rounded bg-slate-200">
        <img
          src={slide.thumbnail}
          alt={slideName(slide, position)}
          loading="lazy"
          width={320}
          height={180}
          // The whole slide, letterboxed: a teacher checks what is on it, edges included.
          className={`h-full w-full object-contain ${slide.hidden ? 'opacity-40' : ''}`}
        />
      </span>
      <div className="flex min-w-0 flex-1 flex-col gap-1.5">
        <p className="text-xs text-slate-600">
          <span className="font-mono text-indigo-700">{time}</span>
          {slide.hidden && <span className="ms-2 font-medium text-slate-700">{t('slides.editor.hidden')}</span>}
        </p>
        <form onSubmit={onTitle} className="flex gap-1.5">
          <input
            className="input h-9 min-w-0 flex-1 text-sm"
            dir="auto"
            aria-label={t('slides.editor.titleLabel', { time })}
            placeholder={slide.text ? slideLabel({ ...slide, title: null }, 4) : t('common.title')}
            maxLength={LIMITS.slideTitleMax}
            value={title}
            onChange={(event) => setTitle(event.target.value)}
          />
          <button
            type="submit"
            className="btn btn-secondary h-9 px-3 text-xs"
            aria-label={t('slides.editor.save', { position })}
            disabled={change.isPending || title.trim() === (slide.title ?? '')}
          >
            {t('common.save')}
          </button>
        </form>
        <button
          type="button"
          className="self-start rounded px-1 text-xs font-medium text-indigo-700 hover:underline disabled:opacity-50"
          disabled={change.isPending}
          onClick={() =>
            change.mutate(
              { slideId, hidden: !slide.hidden },
              {
                onSuccess: () =>
                  toast.success(t(slide.hidden ? 'slides.editor.shownToast' : 'slides.editor.hiddenToast', { time })),
              },
            )
          }
        >
          {t(slide.hidden ? 'slides.editor.show' : 'slides.editor.hide', { time })}
        </button>
      </div>
    </li>
  );
}
