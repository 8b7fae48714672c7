import { useEffect } from 'react';

/** The product's name: the whole title while a page has none of its own, and the end of every page's title. */
export const APP_TITLE = 'Classroom';

/** "Biology 9A – Lesson 2 · Classroom" from ('Biology 9A', 'Lesson 2'); parts not known yet are left out. */
export function pageTitle(...parts: (string | null | undefined)[]): string {
  const own = parts.filter((part): part is string => Boolean(part?.trim())).join(' – ');
  return own ? `${own} · ${APP_TITLE}` : APP_TITLE;
}

/**
 * Gives the tab the page's own title (WCAG 2.4.2: a screen reader and a row of tabs tell the pages apart), and the
 * product's name back when the page goes, so a page without a title never shows the last one's. With no part known
 * yet it leaves the title alone (a page drawn inside it, such as "not found", may have set its own).
 */
export function usePageTitle(...parts: (string | null | undefined)[]): void {
  const title = pageTitle(...parts);
  useEffect(() => {
    if (title !== APP_TITLE) document.title = title;
  }, [title]);
  useEffect(
    () => () => {
      document.title = APP_TITLE;
    },
    [],
  );
}
