import { ApiError } from '@api/client';
import { errorMessage } from '@api/query-client';
import { formatClock } from '@lib/format';
import { usePageTitle } from '@lib/use-page-title';
import { SearchIcon } from '@ui/icons';
import { QueryState } from '@ui/QueryState';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useCourses } from '../features/classes/api/courses';
import { hitLink, type SearchHit, type SearchResult, snippetParts, useSearch } from '../features/search/api/search';
import { SearchBox } from '../features/search/components/SearchBox';

const KIND_LABEL: Record<SearchHit['kind'], string> = {
  title: 'Title',
  description: 'Description',
  caption: 'Said in the lecture',
  comment: 'Comment',
  chapter: 'Chapter',
  slide: 'On a slide',
};

/** Hits in the order the server ranked them, grouped under their lecture. */
function byLecture(hits: SearchHit[]) {
  const groups = new Map<string, SearchHit[]>();
  for (const hit of hits) groups.set(hit.lectureId, [...(groups.get(hit.lectureId) ?? []), hit]);
  return [...groups.values()];
}

function Snippet({ hit }: { hit: SearchHit }) {
  return (
    <span className="break-words text-slate-800">
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
        {data.more ? 'Best matches' : `${data.hits.length} ${data.hits.length === 1 ? 'match' : 'matches'}`} for “{q}”
        {courseName ? ` in ${courseName}` : ''}
      </p>
      <ol className="flex flex-col gap-4" aria-label="Search results">
        {byLecture(data.hits).map((hits) => {
          const first = hits[0] as SearchHit;
          return (
            <li key={first.lectureId} className="card p-4">
              <h2 className="text-base font-semibold text-slate-900">
                <Link to={hitLink({ ...first, seconds: undefined })} className="hover:underline">
                  {first.lectureTitle}
                </Link>
              </h2>
              <p className="text-sm text-slate-600">{first.courseName}</p>
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
                        <span>{KIND_LABEL[hit.kind]}</span>
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
  usePageTitle(q ? `Search: ${q}` : 'Search', courseName);
  // The server refused the words themselves (only punctuation, a class not theirs): said in its words, no Retry.
  const refused =
    results.data === undefined &&
    results.error instanceof ApiError &&
    results.error.status >= 400 &&
    results.error.status < 500;

  return (
    <section className="mx-auto flex max-w-3xl flex-col gap-5">
      <h1 className="page-title">Search</h1>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
        <SearchBox
          key={courseId ?? 'all'}
          courseId={courseId}
          initial={q}
          label={courseName ? `Search in ${courseName}` : 'Search lectures'}
          className="flex-1"
        />
        <label className="flex items-center gap-2 text-sm text-slate-700">
          <span className="shrink-0">In</span>
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
            <option value="">All my classes</option>
            {courseId && !courseName && <option value={courseId}>This class</option>}
            {courses.data?.map((course) => (
              <option key={course._id} value={course._id}>
                {course.courseName}
              </option>
            ))}
          </select>
        </label>
      </div>

      {!q ? (
        <div className="empty-state">
          <SearchIcon size={40} className="text-indigo-400" />
          <p className="mt-3 font-medium text-slate-800">Find a word in your lectures</p>
          <p className="mt-1 text-sm text-slate-600">
            Search titles, chapters, what was said (captions), the words on slides and comments. A match with a time
            opens the lecture at that second.
          </p>
        </div>
      ) : refused ? (
        <p role="alert" className="rounded-xl border border-amber-200 bg-amber-50 p-4 text-sm text-amber-900">
          {errorMessage(results.error).replace(/^q: /, '')}
        </p>
      ) : (
        // Only this query's own answer is shown: while a new word loads a spinner, while it cannot (offline) Retry.
        <QueryState
          query={results}
          label="search results"
          isEmpty={(data) => data.hits.length === 0}
          empty={
            <div className="empty-state" role="status">
              <SearchIcon size={40} className="text-slate-400" />
              <p className="mt-3 font-medium text-slate-800">No matches for “{q}”</p>
              <p className="mt-1 text-sm text-slate-600">
                {courseId ? 'Try all your classes, or other words.' : 'Try fewer or other words.'}
              </p>
              {courseId && (
                <button
                  type="button"
                  className="btn btn-secondary mt-4"
                  onClick={() => navigate(`/search?${new URLSearchParams({ q })}`)}
                >
                  Search all my classes
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
