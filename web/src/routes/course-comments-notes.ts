/**
 * The class page's comments and notes, in a chunk of their own that loads once the lecture has started (or the page
 * has been left alone a moment: `course-after-first-frame.ts`). On a phone's 3G their code and requests would
 * otherwise share the network with the video's first segment.
 */
export { Comments } from '../features/comments/components/Comments';
export { CourseNotes } from '../features/notes/components/CourseNotes';
