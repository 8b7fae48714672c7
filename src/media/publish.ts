import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { videoPrefix } from '../storage/keys';
import type { Storage } from '../storage/storage';

/** The files a rung playlist names (its init file and its segments), in order. */
export function playlistFiles(text: string): string[] {
  const files: string[] = [];
  for (const line of text.split('\n')) {
    const map = /^#EXT-X-MAP:.*URI="([^"]+)"/.exec(line);
    if (map) files.push(map[1]);
    else if (line.trim() && !line.startsWith('#')) files.push(line.trim());
  }
  return files;
}

/** Only names ffmpeg makes from our own arguments are published: never a path out of the folder. */
const OUR_FILE = /^(init(_\d)?\.mp4|seg_\d{5}\.m4s)$/;

/**
 * Publishes a transcode to storage as it goes, so any server process can serve a video while it is made (PeerTube's
 * live muxing does the same): each segment once ffmpeg lists it in its rung playlist (it never writes to it again),
 * then that rung's playlist, cut at the last segment published. Segments move out of the scratch folder; init files
 * are copied (small, and ffmpeg owns them until it exits). `finish` publishes the rest, the final playlists and the
 * master, and removes the scratch folder.
 */
export function createPublisher(
  storage: Storage,
  videoId: string,
  work: string,
  rungs: number,
  /** Called after each publish round (whether or not it found something new), so a first segment is told at once. */
  onPublished: () => void = () => {},
) {
  const prefix = videoPrefix(videoId);
  /** Bytes of each published file, by its name in the folder (`0/seg_00001.m4s`): what measureRungs adds up. */
  const sizes = new Map<string, number>();
  const lastPlaylist = new Map<number, string>();
  const playable = new Set<number>();
  let round: Promise<void> | undefined;
  let again = false;
  let failure: unknown;

  async function publishRung(rung: number, final: boolean) {
    let text: string;
    try {
      text = readFileSync(join(work, String(rung), 'index.m3u8'), 'utf8');
    } catch {
      return; // not written yet
    }
    // The last round publishes again whatever it finds: ffmpeg may have touched an init file as it closed.
    if (!final && text === lastPlaylist.get(rung)) return;
    const files = playlistFiles(text);
    for (const file of files) {
      if (!OUR_FILE.test(file)) throw new Error(`Unexpected file ${JSON.stringify(file)} in a rung playlist.`);
      const name = `${rung}/${file}`;
      const isInit = file.startsWith('init');
      if (sizes.has(name) && !(isInit && final)) continue;
      const path = join(work, name);
      const size = statSync(path).size;
      if (isInit) await storage.put(`${prefix}/${name}`, Bun.file(path));
      else await storage.putFile(`${prefix}/${name}`, path);
      sizes.set(name, size);
    }
    await storage.put(`${prefix}/${rung}/index.m3u8`, new TextEncoder().encode(text));
    lastPlaylist.set(rung, text);
    if (files.some((file) => file.startsWith('seg_'))) playable.add(rung);
  }

  async function publishAll(final: boolean) {
    // Rungs at once (each in its own order: segments, then its playlist): on S3 a round is one PUT's wait, not nine.
    const rounds = await Promise.allSettled(Array.from({ length: rungs }, (_, rung) => publishRung(rung, final)));
    const failed = rounds.find((round) => round.status === 'rejected');
    if (failed) throw failed.reason;
  }

  return {
    sizes,
    /** Every rung has a published segment and playlist: a player on any server can start. */
    playable: () => playable.size === rungs,
    /** Publishes what ffmpeg has finished since the last call (called on every progress line; never overlaps). */
    kick() {
      if (failure) return;
      if (round) {
        again = true;
        return;
      }
      round = (async () => {
        do {
          again = false;
          await publishAll(false);
          onPublished();
        } while (again);
      })()
        .catch((error) => {
          failure = error;
        })
        .finally(() => {
          round = undefined;
        });
    },
    /** Publishes one finished file of the folder (the poster). */
    async publishFile(name: string) {
      await storage.putFile(`${prefix}/${name}`, join(work, name));
    },
    /** After ffmpeg succeeded: the rest, the final playlists (with their end), then the master. */
    async finish(master: string) {
      await round;
      if (failure) throw failure;
      await publishAll(true);
      for (const name of existsSync(work) ? readdirSync(work) : []) {
        if (name === 'poster.jpg') await storage.putFile(`${prefix}/${name}`, join(work, name));
      }
      await storage.put(`${prefix}/master.m3u8`, new TextEncoder().encode(master));
      rmSync(work, { recursive: true, force: true });
    },
    /** Waits for a round in flight (before the scratch folder is removed after a failure). */
    async settle() {
      await round;
    },
  };
}
