import { LOCALE_CODES, matchLocale, parseAcceptLanguage, SOURCE_LOCALE } from '../contract/locales';
import { translate } from '../i18n/translate';

/**
 * The dev loop's answer while the API server restarts (scripts/dev.ts), in the browser's language among all the
 * product has: that proxy has no app, so no school languages, to ask.
 */
export function apiUnavailableBody(request: Request) {
  const locale =
    matchLocale(parseAcceptLanguage(request.headers.get('accept-language')), LOCALE_CODES) ?? SOURCE_LOCALE;
  const text = translate(locale, 'errors.apiRestarting');
  return { error: text, message: text, code: 'api_unavailable' };
}
