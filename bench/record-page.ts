// The recorder's composition, as the app runs it, for bench:record's page.
import { composeScreenWithBubble, DEFAULT_BUBBLE } from '../web/src/features/recording/state/compose';

Object.assign(window, { composeScreenWithBubble, DEFAULT_BUBBLE });
