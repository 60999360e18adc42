/**
 * The history's status, drawn: the retention line (with Apply Retention Now when limits are set,
 * Open Settings and the store's path) and a banner per problem (Try Again when the store is closed).
 */
import type { HistoryStatusView } from '../../src/protocol/history';
import { banner, button, el } from '../shared/components';

export interface StatusActions {
  applyRetention: () => void;
  openSettings: () => void;
  /** Asks the host again to open the history. */
  retry: () => void;
}

/** The retention line's content. */
export function statusLineContent(s: HistoryStatusView, actions: StatusActions): HTMLElement[] {
  const r = s.retention;
  const limits = [
    r.days !== undefined ? `runs and observations older than ${r.days} days are deleted` : '',
    r.maxObservations !== undefined ? `at most ${r.maxObservations.toLocaleString()} observations are kept` : '',
  ].filter(Boolean);
  return [
    el(
      'span',
      undefined,
      s.available ? `Retention: ${limits.length ? `${limits.join('; ')} (${r.source})` : 'everything is kept'}.` : 'The history is not available.',
    ),
    ...(s.available && limits.length ? [button({ label: 'Apply Retention Now', variant: 'secondary', onClick: actions.applyRetention })] : []),
    button({ label: 'Open Settings', name: 'Open history settings', variant: 'secondary', onClick: actions.openSettings }),
    ...(s.path ? [el('span', 'pp-path', s.path)] : []),
  ];
}

/** A banner per problem the host reported. */
export function problemBanners(s: HistoryStatusView, actions: StatusActions): HTMLElement[] {
  return s.problems.map((p) =>
    banner(
      p.message,
      p.level === 'info' ? 'info' : p.level === 'warning' ? 'warning' : 'error',
      s.available ? [] : [button({ label: 'Try Again', name: 'Try again to open the history', variant: 'secondary', onClick: actions.retry })],
    ),
  );
}
