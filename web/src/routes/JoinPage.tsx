export { JoinPage } from './placeholders';
