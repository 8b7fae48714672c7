/**
 * Preload for the component tests only (`bun run test:web`): a happy-dom window as the globals, React's act()
 * environment, and testing-library's cleanup after every test. The server and end-to-end tests never load it.
 */
import { GlobalRegistrator } from '@happy-dom/global-registrator';
// Keeps Bun's fetch (web/test/server.ts sets up accounts with it) before happy-dom's takes its place.
import './native-fetch';

GlobalRegistrator.register({ url: 'http://localhost/' });

// The browser build of tus-js-client (XHR, localStorage), as the web build picks it through the `browser` field.
const tusBrowser = require.resolve('tus-js-client/lib.esm/browser/index.js');
Bun.plugin({
  name: 'tus-js-client for browsers',
  setup(build) {
    build.onLoad({ filter: /tus-js-client\/lib\.es5\/node\/index\.js$/ }, () => ({
      contents: `export * from ${JSON.stringify(tusBrowser)};`,
      loader: 'js',
    }));
  },
});
// The English catalogue, as the build compiles it: components read their words through t() (web/src/lib/i18n.ts).
const { compileCatalogue } = await import('../../src/i18n/catalogue');
const { i18n } = await import('../src/lib/i18n');
i18n.load('en', compileCatalogue('en') as never);
i18n.activate('en');

// Tells React 19 that updates are wrapped in act() by testing-library, so it does not warn about them.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

// Imported after the window exists: testing-library reads `document` when it loads.
const { afterAll, afterEach } = await import('bun:test');
const { runAtEnd } = await import('./at-end');
const { cleanup, configure } = await import('@testing-library/react');
afterEach(() => cleanup());
// In a preload, afterAll runs once, after the last file: the shared server stops there (web/test/server.ts).
afterAll(runAtEnd);
// Answers come from a real server on a machine shared with other work: wait up to 5 s for what a user waits for.
configure({ asyncUtilTimeout: 5000 });
