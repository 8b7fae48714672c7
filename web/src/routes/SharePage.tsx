export { SharePage } from './placeholders';
