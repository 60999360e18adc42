/**
 * The panel's timings, on `window.__ppHistoryPerf` for the benchmark (bench/historyPanel) to read:
 * keystroke to rendered results, the first rows, and the drawing alone.
 */
export interface PanelPerf {
  scriptStart: number;
  search: number[];
  firstRows?: number;
  /** ms spent drawing (after the answer arrived): runs lists, search results. */
  drawRuns: number[];
  drawHits: number[];
  lastRendered?: string;
}

/** Starts the timings (at script start) and puts them where the benchmark reads them. */
export function installPanelPerf(): PanelPerf {
  return ((window as unknown as { __ppHistoryPerf?: PanelPerf }).__ppHistoryPerf = {
    scriptStart: performance.now(),
    search: [],
    drawRuns: [],
    drawHits: [],
  });
}
