import { atom } from 'jotai';

/** The recording this tab's recorder holds: the "finish uploading" banner never offers it twice. */
export const openRecordingAtom = atom<string | null>(null);
/** Bumped when a recording is saved, discarded or left for later: the banner reads the store again. */
export const storedRecordingsVersionAtom = atom(0);
