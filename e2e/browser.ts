import { type Browser, chromium } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Debian's Chromium, headless, with the flags this closed network needs (and any a test file adds). */
export function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-quic',
      '--no-first-run',
      '--autoplay-policy=no-user-gesture-required',
      ...extraArgs,
    ],
  });
}

/**
 * New contexts block service workers unless a test asks for them (`serviceWorkers: 'allow'`): a page the app's
 * worker controls sends its fetches through the worker, where `page.route` never sees them, so a test that cuts a
 * request would watch it reach the server anyway. The offline tests opt in (see `e2eEnvironment`).
 */
export function serviceWorkersByDefault(browser: Browser, serviceWorkers: 'allow' | 'block'): Browser {
  const newContext = browser.newContext.bind(browser);
  browser.newContext = (options = {}) => newContext({ serviceWorkers, ...options });
  return browser;
}

const axeSource = await Bun.file(require.resolve('axe-core/axe.min.js')).text();

/** Runs axe-core on the page as it is; answers the critical and serious findings (id, impact, where). */
export async function seriousA11yFindings(page: import('playwright-core').Page) {
  // Let transitions end first (a toast fading in is not the colour it will be); endless ones (spinners) are left.
  await page.evaluate(() =>
    Promise.race([
      Promise.all(
        document
          .getAnimations()
          .filter((animation) => animation.effect?.getTiming().iterations !== Number.POSITIVE_INFINITY)
          .map((animation) => animation.finished.catch(() => undefined)),
      ),
      new Promise((resolve) => setTimeout(resolve, 1500)),
    ]),
  );
  // Evaluated through the DevTools protocol, which the app's Content-Security-Policy does not govern.
  await page.evaluate(axeSource);
  const results = (await page.evaluate(() =>
    (window as unknown as { axe: { run: (context: Document) => Promise<unknown> } }).axe.run(document),
  )) as { violations: { id: string; impact: string | null; nodes: { target: string[] }[] }[] };
  return results.violations
    .filter((violation) => violation.impact === 'critical' || violation.impact === 'serious')
    .map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      where: violation.nodes.slice(0, 3).map((node) => node.target.join(' ')),
    }));
}

/**
 * Runs axe on every page the e2e tests visit: on the state a page is in before each `goto` leaves it, and on
 * every open page when its context closes. A critical or serious finding fails the `close()` that found it
 * (the context is closed first), so every e2e test is an accessibility test of the screens it reaches.
 */
export function auditAccessibility(browser: Browser) {
  const audited = new WeakSet<object>();
  const audit = async (page: import('playwright-core').Page, when: string) => {
    const url = page.url();
    if (!url.startsWith('http') || page.isClosed()) return [];
    try {
      let findings = await seriousA11yFindings(page);
      // Something that appeared while axe looked (a toast sliding in as an upload ends) is looked at again once
      // it has settled: only what is still wrong counts.
      if (findings.length > 0) {
        await page.waitForTimeout(500);
        findings = await seriousA11yFindings(page);
      }
      return findings.map((finding) => ({ ...finding, page: new URL(url).pathname, when }));
    } catch {
      // The page was navigating or closing as we looked: the next look covers it.
      return [];
    }
  };
  const watchPage = (page: import('playwright-core').Page, found: unknown[]) => {
    if (audited.has(page)) return page;
    audited.add(page);
    const goto = page.goto.bind(page);
    page.goto = async (...args: Parameters<typeof goto>) => {
      found.push(...(await audit(page, `before going to ${args[0]}`)));
      return goto(...args);
    };
    return page;
  };
  const watchContext = (context: import('playwright-core').BrowserContext) => {
    const found: unknown[] = [];
    const newPage = context.newPage.bind(context);
    context.newPage = async () => watchPage(await newPage(), found);
    const close = context.close.bind(context);
    context.close = async (...args: Parameters<typeof close>) => {
      for (const page of context.pages()) found.push(...(await audit(watchPage(page, found), 'on closing')));
      await close(...args);
      if (found.length > 0) {
        throw new Error(`axe found critical or serious problems:\n${JSON.stringify(found, null, 2)}`);
      }
    };
    return context;
  };
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (...args: Parameters<typeof newContext>) => watchContext(await newContext(...args));
  // browser.newPage makes a context of its own; closing the page is closing it.
  browser.newPage = async (...args: Parameters<Browser['newPage']>) => {
    const context = await browser.newContext(...args);
    const page = await context.newPage();
    const closePage = page.close.bind(page);
    page.close = async (...closeArgs: Parameters<typeof closePage>) => {
      await context.close();
      await closePage(...closeArgs).catch(() => {});
    };
    return page;
  };
  return browser;
}
