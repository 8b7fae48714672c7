import { mergeChapters } from '@contract/chapter-rules';
import type { Chapter } from '@contract/chapters';
import type { LectureJson as Lecture } from '@contract/lectures';
import { formatNumber } from '@lib/format';
import { t } from '@lib/i18n';
import { type PlayerMark, playerMarksAtom } from '@lib/playback';
import { Tabs } from '@ui/Tabs';
import { useSetAtom } from 'jotai';
import { type ComponentType, useEffect, useId, useMemo, useState } from 'react';
import { type Slide, slideLabel, useLectureSlides } from '../api/slides';
import { SlideStrip } from './SlideStrip';

/** From this width the strip and the chapters show together; below it (a phone) they are two tabs. */
const WIDE = '(min-width: 768px)';

function useWide() {
  const [wide, setWide] = useState(() => window.matchMedia(WIDE).matches);
  useEffect(() => {
    const query = window.matchMedia(WIDE);
    const change = () => setWide(query.matches);
    query.addEventListener('change', change);
    return () => query.removeEventListener('change', change);
  }, []);
  return wide;
}

type Part = 'chapters' | 'slides';

/**
 * Under the player: the lecture's chapters (its own, with its titled slides among them) and its slide strip, side
 * by side in one card from 768 px, as the tabs "Chapters" and "Slides" on a phone. It hands the same marks to the
 * player (seek-bar ticks, the chapter's name, `[` and `]`) while the lecture is open. Nothing shows when the lecture
 * has neither; "Making the slide index…" while the index is being made.
 */
export function LectureGuide({
  lecture,
  ChapterList,
}: {
  lecture: Lecture;
  /** The chapters' list (features/chapters), given by the page that composes the two. */
  ChapterList: ComponentType<{ chapters: Chapter[]; labelledBy?: string }>;
}) {
  const { state, slides: listed } = useLectureSlides(lecture);
  const wide = useWide();
  const id = useId();
  const setMarks = useSetAtom(playerMarksAtom);

  const slides: Slide[] = useMemo(
    () => (state === 'ready' ? listed.filter((slide) => !slide.hidden) : []),
    [state, listed],
  );
  // The server's chapters, with titled slides merged in for display (a slide already among them is skipped).
  const chapters = useMemo(
    () =>
      mergeChapters({
        editor: lecture.chapters,
        description: [],
        slides: slides.flatMap((slide) => (slide.title ? [{ seconds: slide.seconds, title: slide.title }] : [])),
      }).chapters,
    [lecture.chapters, slides],
  );

  useEffect(() => {
    setMarks({
      chapters: chapters.map((chapter): PlayerMark => ({ ...chapter, label: chapter.title, kind: 'chapter' })),
      slides: slides.map((slide): PlayerMark => ({ seconds: slide.seconds, label: slideLabel(slide), kind: 'slide' })),
    });
  }, [chapters, slides, setMarks]);
  useEffect(() => () => setMarks({ chapters: [], slides: [] }), [setMarks]);

  const parts: Part[] = [];
  if (chapters.length > 0) parts.push('chapters');
  if (slides.length > 0) parts.push('slides');
  const [tab, setTab] = useState<Part>('chapters');
  const selected = parts.includes(tab) ? tab : (parts[0] as Part);
  const partName = (part: Part) => t(part === 'chapters' ? 'chapters.title' : 'slides.title');

  const pending = state === 'pending' && lecture.video?.playable;
  if (parts.length === 0) {
    return pending ? (
      <p role="status" className="text-sm text-slate-500">
        {t('slides.making')}
      </p>
    ) : null;
  }

  const chapterList = <ChapterList chapters={chapters} labelledBy={`${id}-chapters`} />;
  const strip = <SlideStrip slides={slides} labelledBy={`${id}-slides`} />;
  const heading = (part: Part) => (
    <h3 className="px-4 pt-3 text-sm font-semibold text-slate-900">
      <span id={`${id}-${part}`}>{partName(part)}</span>
      <span className="ms-2 font-normal text-slate-500">
        {formatNumber(part === 'chapters' ? chapters.length : slides.length)}
      </span>
    </h3>
  );

  return (
    <section aria-label={t('slides.guide.label')} className="card flex min-w-0 flex-col" data-testid="lecture-guide">
      {wide || parts.length === 1 ? (
        <>
          {parts.includes('slides') && (
            <div className="min-w-0">
              {heading('slides')}
              {strip}
            </div>
          )}
          {parts.includes('chapters') && (
            <div className={`min-w-0 ${parts.length > 1 ? 'border-t border-slate-100' : ''}`}>
              {heading('chapters')}
              {chapterList}
            </div>
          )}
          {pending && <p className="px-4 pb-3 text-sm text-slate-500">{t('slides.making')}</p>}
        </>
      ) : (
        <Tabs
          label={t('slides.guide.label')}
          tabs={parts}
          labels={{ chapters: partName('chapters'), slides: partName('slides') }}
          selected={selected}
          onSelect={setTab}
          panelClassName="min-w-0"
        >
          <span id={`${id}-${selected}`} className="sr-only">
            {partName(selected)}
          </span>
          {selected === 'chapters' ? chapterList : strip}
        </Tabs>
      )}
    </section>
  );
}
