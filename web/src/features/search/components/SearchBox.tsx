import { LIMITS } from '@contract/limits';
import { t } from '@lib/i18n';
import { SearchIcon } from '@ui/icons';
import { useEffect, useId, useState } from 'react';
import { useNavigate } from 'react-router';

/**
 * A search form: Enter (or the button) opens the results page for the words, in all the user's classes or, with
 * `courseId`, in that class. Nothing is sent while typing.
 */
export function SearchBox({
  courseId,
  initial = '',
  label = t('search.box.label'),
  placeholder = t('search.box.placeholder'),
  className = '',
}: {
  courseId?: string;
  initial?: string;
  label?: string;
  placeholder?: string;
  className?: string;
}) {
  const navigate = useNavigate();
  const [text, setText] = useState(initial);
  const id = useId();
  useEffect(() => setText(initial), [initial]);
  return (
    // biome-ignore lint/a11y/useSemanticElements: <search> is too new for some browsers' accessibility trees; the role is the same landmark
    <form
      role="search"
      aria-label={label}
      className={`flex min-w-0 items-center ${className}`}
      onSubmit={(event) => {
        event.preventDefault();
        const q = text.trim();
        if (!q) return;
        const params = new URLSearchParams({ q });
        if (courseId) params.set('courseId', courseId);
        navigate(`/search?${params}`);
      }}
    >
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <div className="relative min-w-0 flex-1">
        <input
          id={id}
          type="search"
          name="q"
          className="input h-10 w-full rounded-e-none pe-2"
          placeholder={placeholder}
          value={text}
          maxLength={LIMITS.searchQueryMax}
          autoComplete="off"
          enterKeyHint="search"
          onChange={(event) => setText(event.target.value)}
        />
      </div>
      <button
        type="submit"
        className="btn btn-primary h-10 shrink-0 rounded-s-none px-3"
        aria-label={t('search.box.submit')}
      >
        <SearchIcon size={18} />
      </button>
    </form>
  );
}
