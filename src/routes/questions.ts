import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { z } from 'zod';
import { readableLecture, taughtLecture } from '../auth/access';
import { requireUser } from '../auth/middleware';
import { LIMITS } from '../contract/limits';
import {
  answerBody,
  answerResultJson,
  type MyAnswerJson,
  markBody,
  type QuestionJson,
  questionInput,
  questionJson,
  questionResultsJson,
  questionsJson,
  questionUpdateBody,
} from '../contract/questions';
import type { Db } from '../db/client';
import {
  addQuestion,
  answerOfClass,
  answersOfClass,
  answersOfStudent,
  deleteQuestion,
  markAnswer,
  type Question,
  questionById,
  questionsOfLecture,
  recordAnswer,
  replaceQuestion,
  type StoredAnswer,
} from '../db/queries/questions';
import type { Lecture, User } from '../db/schema';
import type { AppDeps, AppEnv } from '../deps';
import { ApiError, badRequest, errorBody, forbidden, notFound } from '../errors';
import { answers } from '../http/openapi';
import { idParam, idSchema, validate } from '../http/validation';
import { fittedAnswer, isScored, scoreAnswer, triesLeft } from '../lib/questions';
import { durationOf, trackingOff } from './insight';

/**
 * A 2,000-character short answer is at most ~12 KB of JSON. The cap leaves room for a short answer ten times too
 * long to be read and told so in the field's words (`fields.answerTooLong`); anything bigger is refused unread.
 */
const ANSWER_MAX_BYTES = 64 * 1024;

const questionParam = z.object({ id: idSchema, questionId: idSchema });
const markParam = z.object({ id: idSchema, userId: idSchema });
/** `PATCH /api/questions/{id}/answers/{userId}` answers the marked answer as the results list shows it. */
const markedAnswerJson = questionResultsJson.shape.questions.element.shape.answers.element;

const questionNotFound = () => notFound('question_not_found', 'errors.questionNotFound');
const tooManyQuestions = () =>
  new ApiError(409, 'too_many_questions', 'errors.tooManyQuestions', {}, { max: LIMITS.questionsPerLecture });
const iso = (ms: number) => new Date(ms).toISOString();
/** Students' browsers keep the list for offline viewing, but ask again each time they are online. */
const REVALIDATE = { 'Cache-Control': 'private, no-cache' };

/** A question as its teacher sees it: with its right answer and version, never an answer of theirs. */
function teacherView(question: Question): QuestionJson {
  return { ...commonView(question), mine: null, key: question.key, version: question.version };
}

/** A question as a student sees it: no right answer, but in their own answer once that is final (with feedback). */
function studentView(question: Question, mine: StoredAnswer | undefined): QuestionJson {
  return { ...commonView(question), mine: mine ? myAnswer(question, mine) : null, key: null, version: 0 };
}

function commonView(question: Question) {
  return {
    _id: question.id,
    kind: question.kind,
    at: question.at,
    prompt: question.prompt,
    choices: question.choices,
    multiple: question.kind === 'choice' && Array.isArray(question.key) && question.key.length > 1,
    feedback: question.feedback,
    marked: question.marked,
  };
}

/** A student's own answer: right or wrong only with feedback, the right answer only once the answer is final. */
function myAnswer(question: Question, answer: Omit<StoredAnswer, 'userId' | 'lectureId' | 'offline'>): MyAnswerJson {
  const left = triesLeft(question, answer);
  const final = answer.correct === true || left === 0;
  return {
    answer: answer.answer,
    correct: question.feedback ? answer.correct : null,
    tries: answer.tries,
    triesLeft: left,
    rightAnswer: question.feedback && final ? question.key : null,
    changed: answer.version < question.version,
    answeredAt: iso(answer.answeredAt),
  };
}

/** The moment must be within the lecture's video (a lecture without one that plays takes no questions: 409). */
async function checkMoment(db: Db, lecture: Lecture, at: number) {
  const duration = await durationOf(db, lecture, 'errors.questionNoVideo');
  if (at > duration) {
    throw badRequest('invalid_input', 'fields.questionAtPastEnd', { fields: { at: 'fields.questionAtPastEnd' } });
  }
}

/** A question of this lecture, or its 404. */
async function questionOfLecture(db: Db, lectureId: string, questionId: string) {
  const question = await questionById(db, questionId);
  if (!question || question.lectureId !== lectureId) throw questionNotFound();
  return question;
}

/**
 * A question and its lecture, if the user may read the lecture; anyone else gets `refusal` (the lecture's 404 would
 * name the wrong thing). A question's id is unguessable and says nothing of its class.
 */
async function readableQuestion(db: Db, user: User, questionId: string, refusal: () => ApiError) {
  const question = await questionById(db, questionId);
  if (!question) throw questionNotFound();
  try {
    return { question, ...(await readableLecture(db, user, question.lectureId)) };
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) throw refusal();
    throw error;
  }
}

/**
 * Questions inside a lecture, the teacher's side and the list: the lectures' sub-resources (docs/teaching.md).
 * Mounted inside the lectures routes; every route asks for a signed-in user itself.
 */
export function questionRoutes(deps: AppDeps) {
  const { db, config } = deps;
  const signedIn = requireUser(deps);
  return new Hono<AppEnv>()
    .get('/:id/questions', answers({ 200: questionsJson }), signedIn, validate('param', idParam), async (c) => {
      const user = c.get('user');
      const { lecture, membership } = await readableLecture(db, user, c.req.valid('param').id);
      const questions = await questionsOfLecture(db, lecture.id);
      if (membership === 'teacher') {
        return c.json({ questions: questions.map(teacherView), noSkip: lecture.noSkip }, 200, REVALIDATE);
      }
      // An administrator's answers are never kept (as their viewing is never counted): they see no answer of theirs.
      const mine =
        config.studentTracking && !user.isAdmin ? await answersOfStudent(db, lecture.id, user.id) : new Map();
      return c.json(
        {
          questions: questions.map((question) => studentView(question, mine.get(question.id))),
          noSkip: lecture.noSkip,
        },
        200,
        REVALIDATE,
      );
    })

    .post(
      '/:id/questions',
      answers({ 201: questionJson }),
      signedIn,
      validate('param', idParam),
      validate('json', questionInput),
      async (c) => {
        const lecture = await taughtLecture(db, c.get('user'), c.req.valid('param').id);
        const input = c.req.valid('json');
        await checkMoment(db, lecture, input.at);
        const question = await addQuestion(db, lecture.id, input);
        if (!question) throw tooManyQuestions();
        return c.json(teacherView(question), 201);
      },
    )

    .get(
      '/:id/questions/results',
      answers({ 200: questionResultsJson }),
      signedIn,
      validate('param', idParam),
      async (c) => {
        const lecture = await taughtLecture(db, c.get('user'), c.req.valid('param').id);
        if (!config.studentTracking) throw trackingOff();
        const questions = await questionsOfLecture(db, lecture.id);
        const all = await answersOfClass(db, lecture.id, lecture.courseId);
        return c.json({ questions: questions.map((question) => resultsOf(question, all)) }, 200, {
          'Cache-Control': 'no-store',
        });
      },
    )

    .patch(
      '/:id/questions/:questionId',
      answers({ 200: questionJson }),
      signedIn,
      validate('param', questionParam),
      validate('json', questionUpdateBody),
      async (c) => {
        const { id, questionId } = c.req.valid('param');
        const lecture = await taughtLecture(db, c.get('user'), id);
        await questionOfLecture(db, lecture.id, questionId);
        const body = c.req.valid('json');
        await checkMoment(db, lecture, body.question.at);
        const question = await replaceQuestion(db, questionId, body.question, body.rescore);
        if (!question) throw questionNotFound();
        return c.json(teacherView(question), 200);
      },
    )

    .delete(
      '/:id/questions/:questionId',
      answers({ 204: 'Deleted, with its answers.' }),
      signedIn,
      validate('param', questionParam),
      async (c) => {
        const { id, questionId } = c.req.valid('param');
        const lecture = await taughtLecture(db, c.get('user'), id);
        if (!(await deleteQuestion(db, lecture.id, questionId))) throw questionNotFound();
        return c.body(null, 204);
      },
    );
}

/** Answers, and the teacher's marks on short answers: `/api/questions`. */
export function answersRoutes(deps: AppDeps) {
  const { db, config } = deps;
  const smallAnswer = bodyLimit({
    maxSize: ANSWER_MAX_BYTES,
    onError: (c) => c.json(errorBody(c, 'invalid_input', 'errors.requestTooLarge'), 400),
  });
  return new Hono<AppEnv>()
    .use(requireUser(deps))
    .post(
      '/:id/answers',
      answers({ 200: answerResultJson }),
      smallAnswer,
      validate('param', idParam),
      validate('json', answerBody),
      async (c) => {
        const user = c.get('user');
        // A student of another class gets 403 (the "an answer to a question of another class").
        const { question, membership } = await readableQuestion(db, user, c.req.valid('param').id, () =>
          forbidden('errors.onlyStudentsAnswer'),
        );
        // Only students answer: the class's teacher and administrators are never counted.
        if (membership !== 'student' || user.isAdmin) throw forbidden('errors.onlyStudentsAnswer');
        const body = c.req.valid('json');
        const answer = fittedAnswer(question, body.answer);
        if (answer === undefined) {
          throw badRequest('invalid_input', 'fields.answerWrongKind', { fields: { answer: 'fields.answerWrongKind' } });
        }
        const correct = scoreAnswer(question, answer);
        const now = Date.now();
        // With STUDENT_TRACKING=off the answer is scored and told, and nothing is kept about the student.
        if (!config.studentTracking) {
          return c.json(
            myAnswer(question, {
              questionId: question.id,
              answer,
              correct,
              tries: 1,
              version: question.version,
              answeredAt: now,
            }),
            200,
          );
        }
        const result = await recordAnswer(db, {
          question,
          userId: user.id,
          answer,
          correct,
          offline: body.offline ?? false,
          now,
          mayReplace: (previous) => triesLeft(question, previous) > 0,
        });
        if (!result.kept) throw new ApiError(409, 'question_answered', 'errors.questionAnswered');
        return c.json(myAnswer(question, result.kept), 200);
      },
    )

    .patch(
      '/:id/answers/:userId',
      answers({ 200: markedAnswerJson }),
      validate('param', markParam),
      validate('json', markBody),
      async (c) => {
        const { id, userId } = c.req.valid('param');
        const { question, membership, lecture } = await readableQuestion(db, c.get('user'), id, questionNotFound);
        if (membership !== 'teacher') throw forbidden('errors.onlyTheTeacher');
        if (question.kind !== 'short' || !question.marked) {
          throw new ApiError(409, 'not_markable', 'errors.questionNotMarkable');
        }
        const existing = await answerOfClass(db, question.id, userId, lecture.courseId);
        if (!existing) throw notFound('answer_not_found', 'errors.answerNotFound');
        const marked = await markAnswer(db, question.id, userId, c.req.valid('json').correct);
        if (!marked) throw notFound('answer_not_found', 'errors.answerNotFound');
        return c.json(resultRow(question, { ...marked, username: existing.username }), 200);
      },
    );
}

type ClassAnswer = StoredAnswer & { username: string };

function resultRow(question: Question, answer: ClassAnswer) {
  return {
    userId: answer.userId,
    username: answer.username,
    answer: answer.answer,
    correct: answer.correct,
    tries: answer.tries,
    changed: answer.version < question.version,
    answeredAt: iso(answer.answeredAt),
  };
}

/** One question's figures: who answered, the share right of those scored, the most common wrong answers. */
function resultsOf(question: Question, all: ClassAnswer[]) {
  const mine = all.filter((answer) => answer.questionId === question.id);
  const scored = isScored(question) ? mine.filter((answer) => answer.correct !== null) : [];
  const wrong = new Map<string, { answer: StoredAnswer['answer']; count: number }>();
  for (const answer of scored) {
    if (answer.correct !== false) continue;
    const key = JSON.stringify(answer.answer);
    const entry = wrong.get(key) ?? { answer: answer.answer, count: 0 };
    entry.count++;
    wrong.set(key, entry);
  }
  return {
    questionId: question.id,
    answered: mine.length,
    right: scored.filter((answer) => answer.correct === true).length,
    scored: scored.length,
    // Most first; a tie keeps the order first met (students by name).
    commonWrong: [...wrong.values()].sort((a, b) => b.count - a.count).slice(0, 3),
    toMark: question.kind === 'short' && question.marked ? mine.filter((answer) => answer.correct === null).length : 0,
    answers: mine.map((answer) => resultRow(question, answer)),
  };
}
