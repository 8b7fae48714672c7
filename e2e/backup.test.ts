import { afterAll, expect, test } from 'bun:test';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SnapshotManifest } from '../src/backup/snapshots';
import { openDatabase } from '../src/db/client';
import { comments } from '../src/db/schema';
import { makeClip, readBytes, uploadForm } from '../src/test/fixtures';
import { apiClient, signUpWith } from '../src/test/harness';
import { startMailCapture } from '../src/test/mail-capture';
import { root, startServer } from './server';

const work = mkdtempSync(join(tmpdir(), 'classroom-backup-'));
const mail = await startMailCapture();
afterAll(async () => {
  await mail.close();
  rmSync(work, { recursive: true, force: true });
});

/** `bun src/backup/cli.ts …` as an admin would run it beside the live server. */
async function cli(args: string[], env: Record<string, string>) {
  const child = Bun.spawn(['bun', join(root, 'src', 'backup', 'cli.ts'), ...args], {
    env: { ...process.env, ...env },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const [out, err] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text()]);
  if ((await child.exited) !== 0) throw new Error(`${args.join(' ')} failed: ${err}${out}`);
  return out;
}

test('a backup taken while 20 clients write restores into an empty folder with every earlier row, and its video plays', async () => {
  const dataDir = join(work, 'data');
  const backups = join(work, 'backups');
  const env = { SMTP_URL: mail.url, TEACHER_SIGNUP: 'open' };
  const server = await startServer({ dataDir, env });
  const api = apiClient(server.baseUrl);
  try {
    const teacher = await signUpWith(api, mail, 'teacher', 'Bea Backup');
    const course = (await api('POST', '/api/courses', { as: teacher.token, body: { courseName: 'Backed up' } })).json;
    const clip = await makeClip(work, { width: 320, height: 240, seconds: 3 });
    const uploaded = await api('POST', '/api/upload', {
      as: teacher.token,
      body: uploadForm(readBytes(clip), 'b.mp4'),
    });
    const lecture = (
      await api('POST', '/api/lectures', {
        as: teacher.token,
        body: { courseId: course._id, nameOfTopic: 'Kept', videoLink: uploaded.json.masterPlaylist },
      })
    ).json;
    const deadline = Date.now() + 60_000;
    while ((await api('GET', `/api/videos/${uploaded.json.videoId}`, { as: teacher.token })).json.status !== 'ready') {
      if (Date.now() > deadline) throw new Error('video not ready');
      await Bun.sleep(100);
    }
    const students = await Promise.all(
      Array.from({ length: 20 }, (_, i) => signUpWith(api, mail, 'student', `Writer ${i}`)),
    );
    for (const student of students) {
      await api('POST', '/api/enrollments/join', { as: student.token, body: { inviteCode: course.inviteCode } });
    }

    // 20 clients comment as fast as they can; the snapshot is taken in the middle of it.
    let writing = true;
    const written: { text: string; at: number }[] = [];
    const writers = students.map(async (student, i) => {
      for (let n = 0; writing; n++) {
        const text = `comment ${i}-${n}`;
        const result = await api('POST', `/api/lectures/${lecture._id}/comments`, {
          as: student.token,
          body: { text },
        });
        if (result.status === 201) written.push({ text, at: Date.now() });
      }
    });
    await Bun.sleep(500);
    const startedAt = Date.now();
    const first = await cli(['backup', backups], { DATA_DIR: dataDir });
    await Bun.sleep(300);
    writing = false;
    await Promise.all(writers);
    expect(first).toContain('Snapshot');
    const beforeSnapshot = written.filter((comment) => comment.at < startedAt).map((comment) => comment.text);
    expect(beforeSnapshot.length).toBeGreaterThan(20);
    expect(written.length).toBeGreaterThan(beforeSnapshot.length);

    // A second snapshot of the unchanged media links every file and copies none.
    await cli(['backup', backups], { DATA_DIR: dataDir });
    const snapshots = readdirSync(backups).sort();
    expect(snapshots).toHaveLength(2);
    const second = (await Bun.file(join(backups, snapshots[1], 'manifest.json')).json()) as SnapshotManifest;
    expect(second.mediaFiles).toBeGreaterThanOrEqual(5);
    expect(second.mediaBytesAdded).toBe(0);
    expect(second.bytesLinked).toBeGreaterThan(100_000);

    // Restore the first into an empty folder and start a server on it.
    const restoredDir = join(work, 'restored');
    await cli(['restore', join(backups, snapshots[0]), restoredDir], {});
    await server.stop();
    const restored = await startServer({ dataDir: restoredDir, env });
    try {
      const again = apiClient(restored.baseUrl);
      const login = await again('POST', '/api/users/login', {
        body: { email: teacher.email, password: teacher.password },
      });
      expect(login.status).toBe(200);
      // Every comment answered before the snapshot began is there (read from the restored file: the API pages).
      const { db, sqlite } = openDatabase(join(restoredDir, 'classroom.sqlite'));
      const texts = new Set((await db.select({ text: comments.text }).from(comments)).map((row) => row.text));
      sqlite.close();
      expect(beforeSnapshot.filter((text) => !texts.has(text))).toEqual([]);
      const master = await again('GET', uploaded.json.masterPlaylist, { as: login.json.token });
      expect(master.status).toBe(200);
      const rung = await again('GET', `/media/videos/${uploaded.json.videoId}/0/index.m3u8`, { as: login.json.token });
      const segment = /seg_\d{5}\.m4s/.exec(rung.text)?.[0];
      const bytes = await fetch(`${restored.baseUrl}/media/videos/${uploaded.json.videoId}/0/${segment}`, {
        headers: { authorization: `Bearer ${login.json.token}` },
      });
      expect(bytes.status).toBe(200);
      expect((await bytes.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    } finally {
      await restored.stop();
    }
  } finally {
    await server.stop().catch(() => {});
  }
}, 180_000);
