/**
 * The class page's teacher-only parts, in a chunk of their own: a student's class page (on a phone, on 3G) never
 * downloads the topic dialogs, the chapter and slide editors, the roster, the progress table or the share panel.
 */
export { ClassRoster } from '../features/classes/components/ClassRoster';
export { ClassStrip } from '../features/classes/components/ClassStrip';
export { SharePanel } from '../features/classes/components/SharePanel';
export { TeacherProgress } from '../features/classes/components/TeacherProgress';
export { DeleteTopicDialog } from '../features/lectures/components/DeleteTopicDialog';
export { LmsSection } from '../features/lti/components/LmsSection';
export { DownloadsSwitch } from '../features/offline/components/DownloadsSwitch';
export { QuestionsPanel } from '../features/questions/components/QuestionsPanel';
export { RecordingRecovery } from '../features/recording/components/RecordingRecovery';
export { AddTopicModal, EditTopicModal } from './topic/TopicModals';
