import { t } from './i18n';

/** Toast durations and delays from the spec's constants. */
export const AUTH_TOAST_MS = 3000;
export const TOAST_MS = 5000;
export const REDIRECT_DELAY_MS = 1500;

/** '{server error or default}. Please try again.' without a doubled full stop. */
export function withTryAgain(message: string): string {
  return t('common.withTryAgain', { message: message.replace(/[.!。।؟\s]+$/, '') });
}
