import { randomBytes } from 'node:crypto';
import type { Locale } from '../contract/locales';
import { escapeHtml, page } from '../http/html-page';
import { type MessageKey, translatorFor } from '../i18n/translate';
import { PRODUCT_NAME } from '../mail/templates';
import type { LaunchProblem } from './verify';

/**
 * The pages of an LTI launch, answered by the server itself: they run inside the LMS's iframe before the app has a
 * session, and in a browser that blocks third-party cookies they are all that works. Each carries its own CSP:
 * scripts only with this answer's nonce, and framing allowed (an LMS frames them).
 */

export type HtmlPage = { html: string; headers: Record<string, string> };

const newNonce = () => randomBytes(16).toString('base64');

function headersFor(scriptNonce: string | undefined): Record<string, string> {
  const script = scriptNonce ? `script-src 'nonce-${scriptNonce}'` : "script-src 'none'";
  return {
    'Content-Security-Policy': `default-src 'none'; style-src 'unsafe-inline'; ${script}; connect-src 'self'; form-action *; base-uri 'none'`,
    'Cache-Control': 'no-store',
    'Referrer-Policy': 'no-referrer',
  };
}

/** A value inside a <script>: JSON that cannot close the script element. */
const scriptValue = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

const REFUSAL_TEXT: Record<LaunchProblem, MessageKey> = {
  no_state: 'lti.refused.session',
  bad_state: 'lti.refused.session',
  no_cookie: 'lti.refused.session',
  bad_nonce: 'lti.refused.session',
  replayed_nonce: 'lti.refused.session',
  expired: 'lti.refused.session',
  unknown_platform: 'lti.refused.platform',
  wrong_audience: 'lti.refused.platform',
  unknown_deployment: 'lti.refused.platform',
  bad_signature: 'lti.refused.platform',
  bad_token: 'lti.refused.platform',
  bad_message: 'lti.refused.platform',
  role_refused: 'lti.refused.role',
  not_set_up: 'lti.refused.notSetUp',
  account_refused: 'lti.refused.account',
  other_teacher: 'lti.refused.otherTeacher',
};

/** Why a launch did not go through, in the person's language, with the code for their administrator. */
export function refusalPage(locale: Locale, problem: LaunchProblem): HtmlPage {
  const t = translatorFor(locale);
  const title = escapeHtml(t('lti.refused.title'));
  const body = `<h1>${title}</h1><p>${escapeHtml(t(REFUSAL_TEXT[problem]))}</p><p><small>${escapeHtml(t('lti.refused.code', { code: problem }))}</small></p>`;
  return { html: page(locale, title, body), headers: headersFor(undefined) };
}

/** A form posted at once (to the LMS's sign-in, or back to it with our answer); a button without scripts. */
export function autoPostPage(locale: Locale, action: string, fields: Record<string, string>): HtmlPage {
  const t = translatorFor(locale);
  const nonce = newNonce();
  const inputs = Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('');
  const title = escapeHtml(t('lti.continue.title'));
  const body = `<h1>${title}</h1><form id="next" method="post" action="${escapeHtml(action)}">${inputs}<button type="submit">${escapeHtml(t('lti.continue.button'))}</button></form>
<script nonce="${nonce}">document.getElementById('next').submit();</script>`;
  return { html: page(locale, title, body), headers: headersFor(nonce) };
}

/**
 * The client side of LTI Platform Storage (IMS "Client Side postMessages"): posts to the platform's storage frame
 * and waits for the answer of the same message id from the expected origin. Shared by the two pages below.
 */
const STORAGE_SCRIPT = `function ltiStorage(target, origin, subject, fields, timeoutMs) {
  return new Promise(function (resolve, reject) {
    var id = 'm' + Math.random().toString(36).slice(2);
    var frame = target === '_parent' ? window.parent : (window.parent.frames[target] || window.parent);
    var done = false;
    function onMessage(event) {
      var data = event.data || {};
      if (event.origin !== origin || data.message_id !== id || data.subject !== subject + '.response') return;
      done = true; window.removeEventListener('message', onMessage);
      if (data.error) reject(new Error(data.error.code || 'error')); else resolve(data);
    }
    window.addEventListener('message', onMessage);
    frame.postMessage(Object.assign({ subject: subject, message_id: id }, fields), origin);
    setTimeout(function () { if (!done) { window.removeEventListener('message', onMessage); reject(new Error('timeout')); } }, timeoutMs);
  });
}`;

/**
 * Login through Platform Storage: keeps `state_<sid>` in the platform's frame (lti.put_data), then goes on to the
 * platform's sign-in. Without an answer it goes on anyway: the state cookie may still do.
 */
export function storagePutPage(
  locale: Locale,
  storage: { target: string; origin: string; key: string; value: string },
  next: string,
): HtmlPage {
  const t = translatorFor(locale);
  const nonce = newNonce();
  const title = escapeHtml(t('lti.continue.title'));
  const body = `<h1>${title}</h1><p><a class="button" href="${escapeHtml(next)}">${escapeHtml(t('lti.continue.button'))}</a></p>
<script nonce="${nonce}">${STORAGE_SCRIPT}
var s = ${scriptValue(storage)}, next = ${scriptValue(next)};
ltiStorage(s.target, s.origin, 'lti.put_data', { key: s.key, value: s.value }, 3000)
  .catch(function () {}).then(function () { location.replace(next); });
</script>`;
  return { html: page(locale, title, body), headers: headersFor(nonce) };
}

/**
 * The end of a launch: hands the session to the app in this frame and opens the page. The token goes in the
 * `token` cookie (SameSite=None; Secure; Partitioned, for a frame) and in this frame's sessionStorage, which the
 * app reads when the browser keeps no third-party cookie (web/src/lib/token-cookie.ts). With `check`, the login
 * had no cookie: the state must first be found in the platform's storage (lti.get_data), or the session is ended.
 */
export function handoverPage(
  locale: Locale,
  handover: {
    token: string;
    maxAgeSeconds: number;
    destination: string;
    check?: { target: string; origin: string; key: string; value: string };
  },
): HtmlPage {
  const t = translatorFor(locale);
  const nonce = newNonce();
  const title = escapeHtml(t('lti.continue.title'));
  const failed = `<h1>${escapeHtml(t('lti.refused.title'))}</h1><p>${escapeHtml(t('lti.refused.session'))}</p>`;
  const body = `<div id="status"><h1>${title}</h1></div>
<script nonce="${nonce}">${STORAGE_SCRIPT}
var h = ${scriptValue(handover)}, failed = ${scriptValue(failed)}, failedTitle = ${scriptValue(`${t('lti.refused.title')} · ${PRODUCT_NAME}`)};
function enter() {
  try { sessionStorage.setItem('classroom.token', h.token); } catch (e) {}
  document.cookie = 'token=' + encodeURIComponent(h.token) + '; Max-Age=' + h.maxAgeSeconds + '; Path=/; SameSite=None; Secure; Partitioned';
  location.replace(h.destination);
}
function refuse() {
  document.getElementById('status').innerHTML = failed;
  document.title = failedTitle;
  fetch('/api/users/logout', { method: 'POST', headers: { authorization: 'Bearer ' + h.token } });
}
if (!h.check) enter();
else ltiStorage(h.check.target, h.check.origin, 'lti.get_data', { key: h.check.key }, 5000)
  .then(function (answer) { if (answer.value === h.check.value) enter(); else refuse(); }, refuse);
</script>`;
  return { html: page(locale, title, body), headers: headersFor(nonce) };
}

/** The end of a Dynamic Registration: tells the LMS's window to close our frame (org.imsglobal.lti.close). */
export function registeredPage(locale: Locale, platformName: string): HtmlPage {
  // The LMS's name is isolated (FSI…PDI) so a Latin name keeps its place in a right-to-left sentence.
  const t = translatorFor(locale);
  const nonce = newNonce();
  const title = escapeHtml(t('lti.registered.title'));
  const body = `<h1>${title}</h1><p>${escapeHtml(t('lti.registered.body', { platform: `\u2068${platformName}\u2069` }))}</p>
<script nonce="${nonce}">(window.opener || window.parent).postMessage({ subject: 'org.imsglobal.lti.close' }, '*');</script>`;
  return { html: page(locale, title, body), headers: headersFor(nonce) };
}

/** A page with the problem of a registration that did not work. */
export function registrationFailedPage(locale: Locale, reason: MessageKey): HtmlPage {
  const t = translatorFor(locale);
  const title = escapeHtml(t('lti.registrationFailed.title'));
  return {
    html: page(locale, title, `<h1>${title}</h1><p>${escapeHtml(t(reason))}</p>`),
    headers: headersFor(undefined),
  };
}

export type PickerClass = { id: string; courseName: string; lectures: { id: string; title: string }[] };

/**
 * The teacher's picker: the class, or one of its lectures, goes back to the LMS as a link (deep linking), or (for a
 * first launch) which class this LMS course is. A plain form: it works in any frame, with or without cookies.
 */
export function pickerPage(
  locale: Locale,
  picker: { action: string; request: string; heading: MessageKey; classes: PickerClass[]; offerNew: boolean },
): HtmlPage {
  const t = translatorFor(locale);
  const title = escapeHtml(t(picker.heading));
  const radio = (value: string, label: string, checked: boolean, nested = false) =>
    `<label class="pick${nested ? ' nested' : ''}"><input type="radio" name="pick" value="${escapeHtml(value)}"${checked ? ' checked' : ''}><span>${label}</span></label>`;
  const options = [
    picker.offerNew ? radio('new', escapeHtml(t('lti.picker.newClass')), true) : '',
    ...picker.classes.map((course, index) => {
      const lectures = picker.offerNew
        ? ''
        : course.lectures
            .map((lecture) =>
              radio(
                `${course.id}/${lecture.id}`,
                `<bdi translate="no">${escapeHtml(lecture.title)}</bdi>`,
                false,
                true,
              ),
            )
            .join('');
      const classLabel = `<strong><bdi translate="no">${escapeHtml(course.courseName)}</bdi></strong>`;
      return radio(course.id, classLabel, !picker.offerNew && index === 0) + lectures;
    }),
  ].join('');
  const body = `<h1>${title}</h1><form method="post" action="${escapeHtml(picker.action)}"><input type="hidden" name="request" value="${escapeHtml(picker.request)}"><fieldset class="picks"><legend>${escapeHtml(t('lti.picker.legend'))}</legend>${options}</fieldset><button type="submit">${escapeHtml(t('lti.picker.submit'))}</button></form>`;
  return { html: page(locale, title, body), headers: headersFor(undefined) };
}
