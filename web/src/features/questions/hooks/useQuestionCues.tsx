import type { LectureJson } from '@contract/lectures';
import type { PlayerCues } from '@lib/playback';
import { useCallback, useMemo, useState } from 'react';
import { type QuestionJson, queuedAnswers, useQuestions } from '../api/questions';
import { QuestionOverlay } from '../components/QuestionOverlay';

/**
 * A student's lecture questions as the player's cues (lib/playback's PlayerCues): where to pause, what to show, and
 * with "no skipping ahead", how far a seek may go. Answered questions (on the server, or waiting offline on this
 * device) are not asked again. Undefined for the teacher, and for a lecture with neither questions nor the rule.
 */
export function useQuestionCues(lecture: LectureJson | null, student: boolean): PlayerCues | undefined {
  const lectureId = lecture?._id;
  const questions = useQuestions(student && lectureId ? lectureId : undefined);
  // Answered in this sitting (the server's list catches up after an answer; an offline one waits on this device).
  const [answered, setAnswered] = useState<ReadonlySet<string>>(new Set());
  const list = questions.data?.questions;
  const open = useMemo(() => {
    const waiting = lectureId ? queuedAnswers(lectureId) : {};
    return (list ?? []).filter((question) => !question.mine && !answered.has(question._id) && !waiting[question._id]);
  }, [list, answered, lectureId]);
  const noSkip = questions.data?.noSkip ?? lecture?.noSkip ?? false;
  const duration = lecture?.video?.durationSeconds ?? 0;
  const reach = ((lecture?.myCoverage?.reach ?? 0) / 100) * duration;

  const render = useCallback(
    (at: number, resume: () => void) =>
      lectureId ? (
        <AskAt
          key={at}
          at={at}
          open={open}
          lectureId={lectureId}
          onAnswered={(id) => setAnswered((before) => new Set(before).add(id))}
          resume={resume}
        />
      ) : null,
    [open, lectureId],
  );

  if (!student || !lecture || (!list?.length && !noSkip)) return undefined;
  return {
    at: open.map((question) => question.at),
    render,
    seekLimit: noSkip ? { played: reach, until: open[0]?.at ?? null } : null,
  };
}

/** The questions at one moment, one after the other; the video plays on after the last. */
function AskAt({
  at,
  open,
  lectureId,
  onAnswered,
  resume,
}: {
  at: number;
  open: QuestionJson[];
  lectureId: string;
  onAnswered: (questionId: string) => void;
  resume: () => void;
}) {
  // Fixed when the cue comes: answering takes the question off the open list, and it stays shown for its feedback.
  const [queue] = useState(() => open.filter((question) => question.at === at));
  const [index, setIndex] = useState(0);
  const question = queue[index];
  if (!question) return null;
  return (
    <QuestionOverlay
      key={question._id}
      question={question}
      lectureId={lectureId}
      onDone={() => {
        onAnswered(question._id);
        if (index + 1 < queue.length) setIndex(index + 1);
        else resume();
      }}
    />
  );
}
