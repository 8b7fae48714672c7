import { and, asc, eq, inArray } from 'drizzle-orm';
import { Hono } from 'hono';
import { z } from 'zod';
import { ownedCourse, readableCourse, readableLecture } from '../auth/course-access';
import { requireUser } from '../auth/middleware';
import type { Db } from '../db/client';
import { type Lecture, lectures, likes, type User, type Video, videos, watchProgress } from '../db/schema';
import type { AppDeps, AppEnv } from '../deps';
import { badRequest, forbidden } from '../errors';
import { newId } from '../ids';
import { masterPlaylistPath, toVideoJson, videoIdFromLink } from '../media/video-json';
import { idParam, idSchema, validate } from '../validation';
import { engagementRoutes } from './engagement';

const nameOfTopic = z
  .string({ error: 'Topic name is required.' })
  .trim()
  .min(1, 'Please provide a topic name.')
  .max(200, 'Topic name must be at most 200 characters.');
const videoLink = z.string().max(2000, 'Video link is too long.').nullable();

const createBody = z.object({ courseId: idSchema, nameOfTopic, videoLink: videoLink.optional() });
const updateBody = z.object({ nameOfTopic: nameOfTopic.optional(), videoLink: videoLink.optional() });
const courseParam = z.object({ courseId: idSchema });

type PersonalState = { liked: boolean; progress: { position: number; duration: number; completed: boolean } | null };

export function lectureJson(lecture: Lecture, video: Video | undefined, publicUrl = '', mine?: PersonalState) {
  return {
    _id: lecture.id,
    courseId: lecture.courseId,
    nameOfTopic: lecture.nameOfTopic,
    videoLink: video ? `${publicUrl}${masterPlaylistPath(video.id)}` : null,
    noOfViews: lecture.noOfViews,
    noOfLikes: lecture.noOfLikes,
    createdAt: new Date(lecture.createdAt).toISOString(),
    video: video ? toVideoJson(video) : null,
    likedByMe: mine?.liked ?? false,
    myProgress: mine?.progress ?? null,
  };
}

/** Whether the user liked each lecture and where they got to in it: two indexed queries for the whole list. */
function personalState(db: Db, userId: string, lectureIds: string[]): Map<string, PersonalState> {
  const state = new Map<string, PersonalState>(lectureIds.map((id) => [id, { liked: false, progress: null }]));
  if (lectureIds.length === 0) return state;
  for (const row of db
    .select({ lectureId: likes.lectureId })
    .from(likes)
    .where(and(eq(likes.userId, userId), inArray(likes.lectureId, lectureIds)))
    .all()) {
    const entry = state.get(row.lectureId);
    if (entry) entry.liked = true;
  }
  for (const row of db
    .select()
    .from(watchProgress)
    .where(and(eq(watchProgress.userId, userId), inArray(watchProgress.lectureId, lectureIds)))
    .all()) {
    const entry = state.get(row.lectureId);
    if (entry)
      entry.progress = { position: row.positionSeconds, duration: row.durationSeconds, completed: row.completed };
  }
  return state;
}

/** Videos of these lectures, in one query. */
export function videosOf(db: Db, rows: Lecture[]): Map<string, Video> {
  const ids = [...new Set(rows.map((row) => row.videoId).filter((id): id is string => id !== null))];
  if (ids.length === 0) return new Map();
  return new Map(
    db
      .select()
      .from(videos)
      .where(inArray(videos.id, ids))
      .all()
      .map((video) => [video.id, video]),
  );
}

/** The video a videoLink names, if the teacher uploaded it; null clears the video. */
function videoForLink(db: Db, teacher: User, link: string | null): string | null {
  if (link === null || link === '') return null;
  const id = videoIdFromLink(link);
  const video = id
    ? db.select({ id: videos.id, ownerId: videos.ownerId }).from(videos).where(eq(videos.id, id)).get()
    : undefined;
  if (!video || video.ownerId !== teacher.id) {
    throw badRequest(
      'invalid_video_link',
      'This video link is not one of your uploads. Please upload the video again.',
      {
        fields: { videoLink: 'Not one of your uploads.' },
      },
    );
  }
  return video.id;
}

export function lecturesRoutes(deps: AppDeps) {
  const { db, media, config } = deps;
  const base = config.publicUrl ?? '';

  /** Lectures as one user sees them: with their video, and whether they liked it and where they got to. */
  const asSeenBy = (user: User, rows: Lecture[]) => {
    const videoById = videosOf(db, rows);
    const mine = personalState(
      db,
      user.id,
      rows.map((row) => row.id),
    );
    return rows.map((row) => lectureJson(row, videoById.get(row.videoId ?? ''), base, mine.get(row.id)));
  };
  const one = (user: User, lecture: Lecture) => asSeenBy(user, [lecture])[0];

  return new Hono<AppEnv>()
    .use(requireUser(deps))
    .route('/', engagementRoutes(deps))

    .get('/course/:courseId', validate('param', courseParam), (c) => {
      const { course } = readableCourse(db, c.get('user'), c.req.valid('param').courseId);
      const rows = db
        .select()
        .from(lectures)
        .where(eq(lectures.courseId, course.id))
        .orderBy(asc(lectures.createdAt))
        .all();
      return c.json(asSeenBy(c.get('user'), rows));
    })

    .post('/', validate('json', createBody), (c) => {
      const user = c.get('user');
      const body = c.req.valid('json');
      const course = ownedCourse(db, user, body.courseId);
      const videoId = videoForLink(db, user, body.videoLink ?? null);
      const lecture = db
        .insert(lectures)
        .values({ id: newId(), courseId: course.id, nameOfTopic: body.nameOfTopic, videoId })
        .returning()
        .get();
      return c.json(one(user, lecture), 201);
    })

    .get('/:id', validate('param', idParam), (c) => {
      const { lecture } = readableLecture(db, c.get('user'), c.req.valid('param').id);
      return c.json(one(c.get('user'), lecture));
    })

    .patch('/:id/update', validate('param', idParam), validate('json', updateBody), (c) => {
      const user = c.get('user');
      const { lecture, isOwner } = readableLecture(db, user, c.req.valid('param').id);
      if (!isOwner) throw forbidden('Only the teacher of this class can do that.');
      const body = c.req.valid('json');
      const videoId = body.videoLink === undefined ? lecture.videoId : videoForLink(db, user, body.videoLink);
      const updated = db
        .update(lectures)
        .set({ nameOfTopic: body.nameOfTopic ?? lecture.nameOfTopic, videoId })
        .where(eq(lectures.id, lecture.id))
        .returning()
        .get();
      if (lecture.videoId !== videoId) media.deleteUnreferenced([lecture.videoId]);
      return c.json(one(user, updated));
    })

    .delete('/:id', validate('param', idParam), (c) => {
      const user = c.get('user');
      const { lecture, isOwner } = readableLecture(db, user, c.req.valid('param').id);
      if (!isOwner) throw forbidden('Only the teacher of this class can do that.');
      db.delete(lectures).where(eq(lectures.id, lecture.id)).run();
      media.deleteUnreferenced([lecture.videoId]);
      return c.json({ message: 'Lecture deleted' });
    });
}
