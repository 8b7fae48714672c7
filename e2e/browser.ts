import { type Browser, chromium } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Debian's Chromium, headless, with the flags this closed network needs. */
export function launchBrowser(): Promise<Browser> {
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
    ],
  });
}

const axeSource = await Bun.file(require.resolve('axe-core/axe.min.js')).text();

/** Runs axe-core on the page as it is; answers the critical and serious findings (id, impact, where). */
export async function seriousA11yFindings(page: import('playwright-core').Page) {
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
