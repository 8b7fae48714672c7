export { CoursePage } from './placeholders';
