import { and, asc, eq, inArray, ne, or, sql } from 'drizzle-orm';
import { LIMITS } from '../../contract/limits';
import type { AnswerValue, QuestionInput, QuestionScore } from '../../contract/questions';
import { emit } from '../../events/events';
import { newId } from '../../lib/ids';
import { type AnswerKey, fittedAnswer, questionParts, rightAnswersDiffer, scoreAnswer } from '../../lib/questions';
import type { Db } from '../client';
import { forUpdate } from '../dialect';
import {
  enrollments,
  type LectureQuestion,
  lectureQuestions,
  lectures,
  type QuestionAnswer,
  questionAnswers,
  users,
} from '../schema';
import { transaction } from '../transaction';

/** A question with its JSON columns read. */
export type Question = Omit<LectureQuestion, 'choices' | 'answerKey'> & { choices: string[]; key: AnswerKey };

/** A student's answer with its JSON read. */
export type StoredAnswer = Omit<QuestionAnswer, 'answer'> & { answer: AnswerValue };

const questionOf = ({ choices, answerKey, ...row }: LectureQuestion): Question => ({
  ...row,
  choices: JSON.parse(choices) as string[],
  key: answerKey === null ? null : (JSON.parse(answerKey) as AnswerKey),
});
const answerOf = (row: QuestionAnswer): StoredAnswer => ({ ...row, answer: JSON.parse(row.answer) as AnswerValue });

/** The columns a question's parts are kept in. */
function columnsOf(parts: ReturnType<typeof questionParts>) {
  const { key, choices, ...rest } = parts;
  return { ...rest, choices: JSON.stringify(choices), answerKey: key === null ? null : JSON.stringify(key) };
}

/** Counted in the score: choice and true/false questions, and short answers the teacher marks (SQL of `isScored`). */
// A function, not a constant: the table objects are the engine's only once the database is open (on PostgreSQL a
// condition built at import read `marked` as SQLite's integer, and the teacher's table answered 500).
const scoredQuestion = () => or(ne(lectureQuestions.kind, 'short'), eq(lectureQuestions.marked, true));

/** A lecture's questions, by the moment they are asked. */
export async function questionsOfLecture(db: Db, lectureId: string) {
  const rows = await db
    .select()
    .from(lectureQuestions)
    .where(eq(lectureQuestions.lectureId, lectureId))
    .orderBy(asc(lectureQuestions.at), asc(lectureQuestions.createdAt), asc(lectureQuestions.id));
  return rows.map(questionOf);
}

export async function questionById(db: Db, questionId: string) {
  const [row] = await db.select().from(lectureQuestions).where(eq(lectureQuestions.id, questionId)).limit(1);
  return row ? questionOf(row) : undefined;
}

/** A student's answers to a lecture's questions, by question. */
export async function answersOfStudent(db: Db, lectureId: string, userId: string) {
  const rows = await db
    .select()
    .from(questionAnswers)
    .where(and(eq(questionAnswers.lectureId, lectureId), eq(questionAnswers.userId, userId)));
  return new Map(rows.map((row) => [row.questionId, answerOf(row)]));
}

/**
 * Adds a question to a lecture; undefined when it has `LIMITS.questionsPerLecture` already. The lecture's row is
 * locked while counting, so two additions at once cannot both take the last place.
 */
export async function addQuestion(db: Db, lectureId: string, input: QuestionInput, now = Date.now()) {
  return transaction(db, async (tx) => {
    await forUpdate(tx, tx.select({ id: lectures.id }).from(lectures).where(eq(lectures.id, lectureId)).limit(1));
    const [counted] = await tx
      .select({ count: sql<number>`count(*)` })
      .from(lectureQuestions)
      .where(eq(lectureQuestions.lectureId, lectureId));
    if (Number(counted?.count ?? 0) >= LIMITS.questionsPerLecture) return undefined;
    const [row] = await tx
      .insert(lectureQuestions)
      .values({ id: newId(), lectureId, ...columnsOf(questionParts(input)), createdAt: now, updatedAt: now })
      .returning();
    return questionOf(row as LectureQuestion);
  });
}

/**
 * Replaces a question. When its right answers change (kind, choices or key) its version moves on: answers given
 * before keep their scores and read as `changed`; with `rescore` they are scored again by the new key (a short answer
 * keeps its mark; an answer that no longer fits the question is left unscored) and count as answers to this version.
 */
export async function replaceQuestion(
  db: Db,
  questionId: string,
  input: QuestionInput,
  rescore: boolean,
  now = Date.now(),
) {
  return transaction(db, async (tx) => {
    const [row] = await forUpdate(
      tx,
      tx.select().from(lectureQuestions).where(eq(lectureQuestions.id, questionId)).limit(1),
    );
    if (!row) return undefined;
    const before = questionOf(row);
    const parts = questionParts(input);
    const version = before.version + (rightAnswersDiffer(before, parts) ? 1 : 0);
    const [updated] = await tx
      .update(lectureQuestions)
      .set({ ...columnsOf(parts), version, updatedAt: now })
      .where(eq(lectureQuestions.id, questionId))
      .returning();
    if (rescore) {
      const answers = await forUpdate(
        tx,
        tx.select().from(questionAnswers).where(eq(questionAnswers.questionId, questionId)),
      );
      for (const answer of answers.map(answerOf)) {
        const fits = fittedAnswer(parts, answer.answer) !== undefined;
        const correct =
          parts.kind === 'short'
            ? fits && before.kind === 'short'
              ? answer.correct
              : null
            : scoreAnswer(parts, answer.answer);
        await tx
          .update(questionAnswers)
          .set({ correct, version })
          .where(and(eq(questionAnswers.questionId, questionId), eq(questionAnswers.userId, answer.userId)));
        await emit(tx, { type: 'answer-recorded', lectureId: before.lectureId, userId: answer.userId });
      }
    }
    return questionOf(updated as LectureQuestion);
  });
}

/** Deletes a question of a lecture and its answers (by cascade); answers whether it was there. */
export async function deleteQuestion(db: Db, lectureId: string, questionId: string) {
  const deleted = await db
    .delete(lectureQuestions)
    .where(and(eq(lectureQuestions.id, questionId), eq(lectureQuestions.lectureId, lectureId)))
    .returning({ id: lectureQuestions.id });
  return deleted.length > 0;
}

/**
 * Keeps a student's scored answer: a first answer, or another try when `mayReplace` allows it given the answer kept
 * (read with its row locked, so two tries at once cannot both pass). Answers `{ kept }`, or `{ refused }` with the
 * answer that stays (undefined when a first answer sent twice at once lost the race).
 */
export async function recordAnswer(
  db: Db,
  options: {
    question: Question;
    userId: string;
    answer: AnswerValue;
    correct: boolean | null;
    offline: boolean;
    now: number;
    mayReplace: (previous: StoredAnswer) => boolean;
  },
) {
  const { question, userId, now } = options;
  const where = and(eq(questionAnswers.questionId, question.id), eq(questionAnswers.userId, userId));
  return transaction(db, async (tx) => {
    const [locked] = await forUpdate(tx, tx.select().from(questionAnswers).where(where).limit(1));
    const previous = locked ? answerOf(locked) : undefined;
    const values = {
      answer: JSON.stringify(options.answer),
      correct: options.correct,
      version: question.version,
      answeredAt: now,
      offline: options.offline,
    };
    if (previous) {
      if (!options.mayReplace(previous)) return { refused: previous } as const;
      const [row] = await tx
        .update(questionAnswers)
        .set({ ...values, tries: previous.tries + 1 })
        .where(where)
        .returning();
      await emit(tx, { type: 'answer-recorded', lectureId: question.lectureId, userId });
      return { kept: answerOf(row as QuestionAnswer) } as const;
    }
    // Two first answers at once: the second inserts nothing and is refused as answered.
    const [row] = await tx
      .insert(questionAnswers)
      .values({ questionId: question.id, userId, lectureId: question.lectureId, tries: 1, ...values })
      .onConflictDoNothing()
      .returning();
    if (!row) return { refused: undefined } as const;
    await emit(tx, { type: 'answer-recorded', lectureId: question.lectureId, userId });
    return { kept: answerOf(row) } as const;
  });
}

/** The teacher's mark on a short answer; undefined when there is no such answer. */
export async function markAnswer(db: Db, questionId: string, userId: string, correct: boolean) {
  return transaction(db, async (tx) => {
    const [row] = await tx
      .update(questionAnswers)
      .set({ correct })
      .where(and(eq(questionAnswers.questionId, questionId), eq(questionAnswers.userId, userId)))
      .returning();
    if (!row) return undefined;
    await emit(tx, { type: 'answer-recorded', lectureId: row.lectureId, userId });
    return answerOf(row);
  });
}

/** The answers of a class's enrolled students to a lecture's questions, with their names, by name. */
export async function answersOfClass(db: Db, lectureId: string, courseId: string) {
  const rows = await db
    .select({ answer: questionAnswers, username: users.username })
    .from(questionAnswers)
    .innerJoin(users, eq(users.id, questionAnswers.userId))
    .innerJoin(enrollments, and(eq(enrollments.studentId, questionAnswers.userId), eq(enrollments.courseId, courseId)))
    .where(eq(questionAnswers.lectureId, lectureId))
    .orderBy(asc(users.username), asc(users.id));
  return rows.map((row) => ({ ...answerOf(row.answer), username: row.username }));
}

/** One student's answer with their name, if they are in the class. */
export async function answerOfClass(db: Db, questionId: string, userId: string, courseId: string) {
  const [row] = await db
    .select({ answer: questionAnswers, username: users.username })
    .from(questionAnswers)
    .innerJoin(users, eq(users.id, questionAnswers.userId))
    .innerJoin(enrollments, and(eq(enrollments.studentId, questionAnswers.userId), eq(enrollments.courseId, courseId)))
    .where(and(eq(questionAnswers.questionId, questionId), eq(questionAnswers.userId, userId)))
    .limit(1);
  return row ? { ...answerOf(row.answer), username: row.username } : undefined;
}

/**
 * The question score of these students in each lecture of a class: right answers over the lecture's scored
 * questions (choice, true/false, marked short answers), as `scoreOf(userId, lectureId)`; null for a lecture without
 * scored questions. Two queries for the whole page: the scored questions per lecture, the right answers per student.
 */
export async function questionScores(db: Db, courseId: string, userIds: string[]) {
  const totals = new Map<string, number>();
  const rights = new Map<string, number>();
  const totalRows = await db
    .select({ lectureId: lectureQuestions.lectureId, count: sql<number>`count(*)` })
    .from(lectureQuestions)
    .innerJoin(lectures, eq(lectures.id, lectureQuestions.lectureId))
    .where(and(eq(lectures.courseId, courseId), scoredQuestion()))
    .groupBy(lectureQuestions.lectureId);
  for (const row of totalRows) totals.set(row.lectureId, Number(row.count));
  if (totals.size > 0 && userIds.length > 0) {
    const rightRows = await db
      .select({
        userId: questionAnswers.userId,
        lectureId: questionAnswers.lectureId,
        count: sql<number>`count(*)`,
      })
      .from(questionAnswers)
      .innerJoin(lectureQuestions, eq(lectureQuestions.id, questionAnswers.questionId))
      .where(
        and(
          // The class's lectures with scored questions (the first query's): no join to lectures.
          inArray(questionAnswers.lectureId, [...totals.keys()]),
          inArray(questionAnswers.userId, userIds),
          eq(questionAnswers.correct, true),
          scoredQuestion(),
        ),
      )
      .groupBy(questionAnswers.userId, questionAnswers.lectureId);
    for (const row of rightRows) rights.set(`${row.userId} ${row.lectureId}`, Number(row.count));
  }
  return (userId: string, lectureId: string): QuestionScore => {
    const total = totals.get(lectureId) ?? 0;
    if (total === 0) return null;
    const right = Math.min(total, rights.get(`${userId} ${lectureId}`) ?? 0);
    return { right, total, percent: Math.round((right / total) * 100) };
  };
}

/** Every answer of a student in one class: what leaving it or being removed deletes (with their coverage). */
export async function deleteAnswersInCourse(db: Db, courseId: string, userId: string) {
  await db
    .delete(questionAnswers)
    .where(
      and(
        eq(questionAnswers.userId, userId),
        inArray(
          questionAnswers.lectureId,
          db.select({ id: lectures.id }).from(lectures).where(eq(lectures.courseId, courseId)),
        ),
      ),
    );
}

/** With tracking off, no per-student answer is kept: those from before are deleted. */
export async function deleteAllAnswers(db: Db) {
  await db.delete(questionAnswers);
}
