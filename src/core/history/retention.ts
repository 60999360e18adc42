/** The `patchpilot.history.retention.*` settings as the store's retention options. */
import type { RetentionOptions } from './types';

export interface RetentionSettings {
  days?: number;
  maxObservations?: number;
}

/** `days` covers runs (with everything under them) and observations alike; undefined when nothing is limited. */
export function retentionOptions(r: RetentionSettings | undefined): RetentionOptions | undefined {
  if (!r || (r.days === undefined && r.maxObservations === undefined)) return undefined;
  return {
    ...(r.days !== undefined ? { maxAgeDays: r.days, maxRunAgeDays: r.days } : {}),
    ...(r.maxObservations !== undefined ? { maxObservations: r.maxObservations } : {}),
  };
}
