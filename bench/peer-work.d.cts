type Row = Record<string, unknown>;
type Answer = [number, unknown];
type Database = { exec(sql: string): unknown; prepare(sql: string): unknown; transaction(fn: unknown): unknown };

export declare function createPeerWork(db: Database): {
  userOf(authorization: string | null | undefined): Row | null;
  sessionUser(sessionId: string, userId: string): Row | null;
  currentUser(user: Row): Answer;
  courses(user: Row): Answer;
  lectureList(user: Row, courseId: string): Answer;
  comments(user: Row, lectureId: string): Answer;
  notes(user: Row, courseId: string): Answer;
  saveProgress(user: Row, lectureId: string, body: { position: number; duration: number }): Answer;
  view(user: Row, lectureId: string): Answer;
};
