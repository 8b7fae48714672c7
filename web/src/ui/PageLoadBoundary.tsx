import { t } from '@lib/i18n';
import { retryFailedPages } from '@lib/lazy-page';
import { Component, type ReactNode } from 'react';

type Props = {
  children: ReactNode;
  /** What the person is looking at (the path): a new one starts afresh. */
  resetKey: string;
};
type State = { error: unknown; resetKey: string; attempts: number };

/**
 * What shows when a screen cannot be drawn, instead of a white page: most often its code could not be downloaded
 * (the connection dropped before the screen was first opened, or the server was updated since). It says so, offers
 * Retry, and tries again by itself when the browser comes back online. A second failure while online reloads the
 * app, which fetches the server's current code.
 */
export class PageLoadBoundary extends Component<Props, State> {
  state: State = { error: undefined, resetKey: this.props.resetKey, attempts: 0 };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error: error ?? new Error('unknown') };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    // Another page: its own attempt, with nothing of the last one's failure.
    return props.resetKey === state.resetKey ? null : { error: undefined, resetKey: props.resetKey, attempts: 0 };
  }

  componentDidMount() {
    window.addEventListener('online', this.retry);
  }

  componentWillUnmount() {
    window.removeEventListener('online', this.retry);
  }

  retry = () => {
    if (this.state.error === undefined) return;
    if (this.state.attempts >= 1 && navigator.onLine) {
      window.location.reload();
      return;
    }
    retryFailedPages();
    this.setState((state) => ({ error: undefined, attempts: state.attempts + 1 }));
  };

  render() {
    if (this.state.error === undefined) return this.props.children;
    const offline = !navigator.onLine;
    return (
      <div className="flex justify-center px-4 py-16">
        <div
          role="alert"
          className="flex max-w-md flex-col items-center gap-3 rounded-xl border border-red-200 bg-red-50 p-4 text-center"
        >
          <p className="text-sm font-medium text-red-800">{t('ui.pageLoadFailed')}</p>
          <p className="text-sm text-red-700">{t(offline ? 'ui.pageLoadOffline' : 'ui.pageLoadDropped')}</p>
          <button type="button" className="btn btn-secondary" onClick={this.retry}>
            {t('common.retry')}
          </button>
        </div>
      </div>
    );
  }
}
