import { rich } from '@lib/i18n';
import type { ReactNode } from 'react';

/**
 * A translated message whose marked parts (`<0>{name}</0>`, `<1>{email}</1>`) are people's own words (names, class
 * titles, addresses): each is drawn in `translate="no"`, so neither a browser's translator nor the pseudo-language
 * check takes it for the app's text.
 */
export function theirWords(message: string, className?: string): ReactNode[] {
  return rich(
    message,
    [0, 1, 2, 3].map((index) => (words: string) => (
      <span key={`their-${index}`} translate="no" className={className}>
        {words}
      </span>
    )),
  );
}
