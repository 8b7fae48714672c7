import { createStore } from 'jotai';

/** The app's one jotai store: given to <Provider> in main.tsx, and used by code outside React (the upload tray). */
export const appStore = createStore();
