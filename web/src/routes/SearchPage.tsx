import { ApiError } from '@api/client';
import { errorMessage } from '@api/query-client';
import { formatClock } from '@lib/format';
import { type MessageKey, rich, t } from '@lib/i18n';
import { usePageTitle } from '@lib/use-page-title';
import { SearchIcon } from '@ui/icons';
import { QueryState } from '@ui/QueryState';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useCourses } from '../features/classes/api/courses';
import { hitLink, type SearchHit, type SearchResult, snippetParts, useSearch } from '../features/search/api/search';
import { SearchBox } from '../features/search/components/SearchBox';

const KIND_LABEL: Record<SearchHit['kind'], MessageKey> = {
  title: 'search.kind.title',
  description: 'search.kind.description',
  caption: 'search.kind.caption',
  comment: 'search.kind.comment',
  chapter: 'search.kind.chapter',
  slide: 'search.kind.slide',
};

/** The searched words and the class's name inside a sentence: the person's own, never translated. */
const ownWords = [
  (words: string) => (
    <span key="q" translate="no">
      {words}
    </span>
  ),
  (words: string) => (
    <span key="course" translate="no">
      {words}
    </span>
  ),
];

/** Hits in the order the server ranked them, grouped under their lecture. */
function byLecture(hits: SearchHit[]) {
  const groups = new Map<string, SearchHit[]>();
  for (const hit of hits) groups.set(hit.lectureId, [...(groups.get(hit.lectureId) ?? []), hit]);
  return [...groups.values()];
}

function Snippet({ hit }: { hit: SearchHit }) {
  return (
    <span className="break-words text-slate-800" translate="no">
      {snippetParts(hit).map((part, i) =>
        part.match ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed snippet
          <mark key={i} className="rounded bg-amber-100 px-0.5 font-semibold text-slate-900">
            {part.text}
          </mark>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed snippet
          <span key={i}>{part.text}</span>
        ),
      )}
    </span>
  );
}

/** One query's hits, under the words that found them. */
function SearchResults({
  data,
  q,
  courseName,
  refreshing,
}: {
  data: SearchResult;
  q: string;
  courseName?: string;
  refreshing: boolean;
}) {
  return (
    <div className={`flex flex-col gap-4 ${refreshing ? 'opacity-70' : ''}`} aria-busy={refreshing}>
      <p className="text-sm text-slate-600" role="status">
        {rich(
          data.more
            ? t(courseName ? 'search.bestIn' : 'search.best', { q, course: courseName ?? '' })
            : t(courseName ? 'search.countIn' : 'search.count', {
                count: data.hits.length,
                q,
                course: courseName ?? '',
              }),
          ownWords,
        )}
      </p>
      <ol className="flex flex-col gap-4" aria-label={t('search.resultsList')}>
        {byLecture(data.hits).map((hits) => {
          const first = hits[0] as SearchHit;
          return (
            <li key={first.lectureId} className="card p-4">
              <h2 className="text-base font-semibold text-slate-900">
                <Link to={hitLink({ ...first, seconds: undefined })} className="hover:underline" translate="no">
                  {first.lectureTitle}
                </Link>
              </h2>
              <p className="text-sm text-slate-600" translate="no">
                {first.courseName}
              </p>
              <ul className="mt-3 flex flex-col gap-2">
                {hits.map((hit, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: hits of one lecture in ranked order
                  <li key={i}>
                    <Link
                      to={hitLink(hit)}
                      className="flex flex-col gap-1 rounded-xl border border-slate-200 p-3 text-sm transition hover:border-indigo-300 hover:bg-indigo-50/40 focus-visible:outline-2 sm:flex-row sm:items-baseline sm:gap-3"
                      data-testid="search-hit"
                    >
                      {hit.thumbnail && (
                        <img
                          src={hit.thumbnail}
                          alt=""
                          loading="lazy"
                          width={320}
                          height={180}
                          className="aspect-video w-32 shrink-0 rounded-md bg-slate-200 object-cover sm:w-24"
                        />
                      )}
                      <span className="flex shrink-0 items-center gap-2 text-xs font-medium text-slate-600 sm:w-44">
                        <span>{t(KIND_LABEL[hit.kind])}</span>
                        {hit.seconds !== undefined && (
                          <span className="rounded-md bg-indigo-50 px-1.5 py-0.5 font-mono text-indigo-700">
                            {formatClock(hit.seconds)}
                          </span>
                        )}
                      </span>
                      <Snippet hit={hit} />
                    </Link>
                  </li>
                ))}
              </ul>
            </li>
          );
        })}
      </ol>
    </div>
  );
}

/** /search?q=…&courseId=…: what matched in titles, chapters, captions, slides and comments, each opening the lecture at its second. */
export function SearchPage() {
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const q = (params.get('q') ?? '').trim();
  const courseId = params.get('courseId') ?? undefined;
  const courses = useCourses();
  const results = useSearch(q, courseId);
  const courseName = courses.data?.find((course) => course._id === courseId)?.courseName;
  usePageTitle(q ? t('search.titleWithQuery', { q }) : t('search.title'), courseName);
  // The server refused the words themselves (only punctuation, a class not theirs): said in its words, no Retry.
  const refused =
    results.data === undefined &&
    results.error instanceof ApiError &&
    results.error.status >= 400 &&
    results.error.status < 500;

  return (
    <section className="mx-auto flex max-w-3xl flex-col gap-5">
      <h1 className="page-title">{t('search.title')}</h1>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
        <SearchBox
          key={courseId ?? 'all'}
          courseId={courseId}
          initial={q}
          label={courseName ? t('search.box.labelIn', { course: courseName }) : t('search.box.label')}
          className="flex-1"
        />
        <label className="flex items-center gap-2 text-sm text-slate-700">
          <span className="shrink-0">{t('search.scope')}</span>
          <select
            className="input h-10 w-full sm:w-56"
            value={courseId ?? ''}
            onChange={(event) => {
              const next = new URLSearchParams(params);
              if (event.target.value) next.set('courseId', event.target.value);
              else next.delete('courseId');
              setParams(next);
            }}
          >
            <option value="">{t('search.allClasses')}</option>
            {courseId && !courseName && <option value={courseId}>{t('search.thisClass')}</option>}
            {courses.data?.map((course) => (
              <option key={course._id} value={course._id} translate="no">
                {course.courseName}
              </option>
            ))}
          </select>
        </label>
      </div>

      {!q ? (
        <div className="empty-state">
          <SearchIcon size={40} className="text-indigo-400" />
          <p className="mt-3 font-medium text-slate-800">{t('search.intro.title')}</p>
          <p className="mt-1 text-sm text-slate-600">{t('search.intro.text')}</p>
        </div>
      ) : refused ? (
        <p role="alert" className="rounded-xl border border-amber-200 bg-amber-50 p-4 text-sm text-amber-900">
          {errorMessage(results.error).replace(/^q: /, '')}
        </p>
      ) : (
        // Only this query's own answer is shown: while a new word loads a spinner, while it cannot (offline) Retry.
        <QueryState
          query={results}
          label={t('search.resultsLoad')}
          isEmpty={(data) => data.hits.length === 0}
          empty={
            <div className="empty-state" role="status">
              <SearchIcon size={40} className="text-slate-400" />
              <p className="mt-3 font-medium text-slate-800">{rich(t('search.none', { q }), ownWords)}</p>
              <p className="mt-1 text-sm text-slate-600">
                {t(courseId ? 'search.none.tryAll' : 'search.none.tryWords')}
              </p>
              {courseId && (
                <button
                  type="button"
                  className="btn btn-secondary mt-4"
                  onClick={() => navigate(`/search?${new URLSearchParams({ q })}`)}
                >
                  {t('search.none.searchAll')}
                </button>
              )}
            </div>
          }
        >
          {(data) => <SearchResults data={data} q={q} courseName={courseName} refreshing={results.isFetching} />}
        </QueryState>
      )}
    </section>
  );
}
