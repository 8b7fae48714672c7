import { courseKeys } from '@api/query-keys';
import { formatRelative } from '@lib/format';
import { rich, t } from '@lib/i18n';
import { toast } from '@lib/toast';
import { useQueryClient } from '@tanstack/react-query';
import { QueryState } from '@ui/QueryState';
import { useEffect, useRef } from 'react';
import {
  type LmsLink,
  type ScoreSource,
  type LmsSection as Section,
  useLmsSection,
  useRosterSync,
  useScoreSource,
} from '../api/lms';

/**
 * A name people typed (a course, an LMS, a lecture), kept as typed by translators' tools and isolated (bdi) so a
 * Latin name keeps its place in a right-to-left sentence.
 */
const nameOf = (key: string) => (name: string) => (
  <bdi key={key} className="font-medium" translate="no">
    {name}
  </bdi>
);

/** What the newest roster sync is doing, in words (nothing before the first one). */
function syncWords(sync: Section['rosterSync']) {
  if (!sync) return undefined;
  if (sync.state === 'queued') return t('lms.roster.queued');
  if (sync.state === 'running') return t('lms.roster.running');
  if (sync.state === 'done') return t('lms.roster.done');
  return t('lms.roster.failed');
}

function Roster({ courseId, section }: { courseId: string; section: Section }) {
  const sync = useRosterSync(courseId);
  const client = useQueryClient();
  const state = section.rosterSync?.state;
  const busy = sync.isPending || state === 'queued' || state === 'running';
  // A sync that ends while the page is open changed the class's roster: it is read again.
  const wasBusy = useRef(false);
  useEffect(() => {
    if (wasBusy.current && !busy) void client.invalidateQueries({ queryKey: courseKeys.roster(courseId) });
    wasBusy.current = busy;
  }, [busy, client, courseId]);
  const withRoster = section.contexts.filter((context) => context.roster);
  const lastSync = withRoster
    .map((context) => context.lastRosterSyncAt)
    .filter((at): at is string => at !== null)
    .sort()
    .at(-1);
  return (
    <div className="flex flex-col gap-2">
      <ul className="flex flex-col gap-1 text-sm text-slate-700">
        {section.contexts.map((context) => (
          <li key={context._id}>
            {rich(t('lms.linkedTo', { course: context.title ?? '', lms: context.platformName }), [
              nameOf('course'),
              nameOf('lms'),
            ])}
          </li>
        ))}
      </ul>
      {withRoster.length === 0 ? (
        <p className="text-sm text-slate-600">{t('lms.roster.none')}</p>
      ) : (
        <>
          <p className="text-sm text-slate-600">
            {lastSync ? t('lms.roster.last', { when: formatRelative(lastSync) }) : t('lms.roster.never')}{' '}
            {t('lms.roster.students', { count: section.lmsStudents })}
          </p>
          <div className="flex flex-wrap items-center gap-3">
            <button
              type="button"
              className="btn btn-secondary h-9 px-3 text-sm pointer-coarse:h-11"
              disabled={busy}
              onClick={() => sync.mutate()}
            >
              {t('lms.roster.syncNow')}
            </button>
            <p role="status" className="text-sm text-slate-700">
              {syncWords(section.rosterSync)}
            </p>
          </div>
        </>
      )}
    </div>
  );
}

function GradeChoice({ courseId, link }: { courseId: string; link: LmsLink }) {
  const change = useScoreSource(courseId);
  const id = `lms-grade-${link._id}`;
  return (
    <li className="flex flex-wrap items-center justify-between gap-2">
      <label htmlFor={id} className="min-w-0 text-sm text-slate-800">
        {rich(t('lms.grades.for', { lecture: link.nameOfTopic }), [nameOf('lecture')])}
      </label>
      <select
        id={id}
        className="input h-9 w-auto text-sm pointer-coarse:h-11"
        value={change.isPending ? change.variables.scoreSource : link.scoreSource}
        disabled={change.isPending}
        onChange={(event) =>
          change.mutate(
            { linkId: link._id, scoreSource: event.target.value as ScoreSource },
            { onSuccess: () => toast.success(t('lms.grades.saved')) },
          )
        }
      >
        <option value="watched">{t('lms.grades.watched')}</option>
        <option value="questions" disabled={!link.hasQuestions && link.scoreSource !== 'questions'}>
          {t('lms.grades.questions')}
        </option>
      </select>
      {!link.inGradebook && <p className="basis-full text-xs text-slate-600">{t('lms.grades.noColumn')}</p>}
    </li>
  );
}

/**
 * For the teacher of a class linked to an LMS course (docs/lti.md): which LMS course, the roster sync (last time, a
 * button, its progress in words) and, per lecture placed in the LMS, whether its grade is the percent watched or the
 * question score. Nothing for a class with no LMS.
 */
export function LmsSection({ courseId }: { courseId: string }) {
  const query = useLmsSection(courseId);
  // Most classes have no LMS: no spinner, and no section, until the answer says there is one.
  if (query.data === undefined && !query.isError) return null;
  if (query.data && query.data.contexts.length === 0) return null;
  return (
    <section aria-labelledby="lms-title" className="card overflow-hidden">
      <h2 id="lms-title" className="border-b border-slate-100 px-4 py-3 font-semibold text-slate-900">
        {t('lms.title')}
      </h2>
      <div className="flex flex-col gap-4 p-4">
        <QueryState query={query} label={t('lms.what')} compact>
          {(section) => (
            <>
              <Roster courseId={courseId} section={section} />
              {section.links.length > 0 && (
                <div className="flex flex-col gap-2">
                  <h3 className="text-sm font-semibold text-slate-900">{t('lms.grades.title')}</h3>
                  <ul className="flex flex-col gap-3">
                    {section.links.map((link) => (
                      <GradeChoice key={link._id} courseId={courseId} link={link} />
                    ))}
                  </ul>
                </div>
              )}
            </>
          )}
        </QueryState>
      </div>
    </section>
  );
}
