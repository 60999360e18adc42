/**
 * Counting prompt tokens without a tokenizer. The API reports what the last request really cost;
 * what was added since is estimated (`estimatePromptTokens`) and scaled by the ratio of
 * reported to estimated tokens seen for that model. A bundled tokenizer would be exact for one
 * model family only and weigh megabytes in the extension (docs/agent.md, "Context, memory and skills").
 */
import { estimatePromptTokens } from '../llm/contextWindows';
import type { ModelMessage, ModelToolSpec, ModelUsage } from '../llm/types';

/** Estimates below this many tokens say too little about a model's ratio to learn from. */
const MIN_CALIBRATION_TOKENS = 200;
/** Margins on counts that rest on the estimate alone: wider before the model ever reported usage. */
const CALIBRATED_MARGIN = 1.05;
const UNCALIBRATED_MARGIN = 1.15;
/**
 * What was added since the last report may differ from the average the ratio describes (a file of
 * another language, of quotes or of CJK text): a wider margin on that part, which is small.
 */
const DELTA_MARGIN = 1.15;
/** Plus a few tokens for framing a small step's estimate does not see (separators between parts). */
const DELTA_SLACK = 16;
/**
 * A ratio below 1 says the estimate ran high on what was sent so far (CJK text a server counts
 * cheaper, say); applied to text of another kind (the system prompt and a summary left after a
 * compaction) it would undercount. So ratios only ever scale the estimate up.
 */
const MIN_APPLIED_RATIO = 1;

/**
 * Reported/estimated token ratios per model, learned from usage reports. One per session (a chat,
 * a CLI process), so later runs start calibrated. Ratios are clamped: a server that reports
 * nonsense cannot make the budget meaningless.
 */
export class TokenCalibration {
  private readonly ratios = new Map<string, number>();

  ratio(model: string): number {
    return this.ratios.get(model) ?? 1;
  }

  isCalibrated(model: string): boolean {
    return this.ratios.has(model);
  }

  /** A request estimated at `estimated` tokens was reported as `reported`. */
  record(model: string, estimated: number, reported: number): void {
    if (estimated < MIN_CALIBRATION_TOKENS || !(reported > 0)) return;
    const r = Math.min(4, Math.max(0.25, reported / estimated));
    const previous = this.ratios.get(model);
    // Recent requests weigh more (the mix of code and prose changes), one odd report weighs half.
    this.ratios.set(model, previous === undefined ? r : previous * 0.5 + r * 0.5);
  }

  /** Calibrated tokens of a text or request estimate (with the safety margin). */
  scale(model: string, estimate: number, margin = this.isCalibrated(model) ? CALIBRATED_MARGIN : UNCALIBRATED_MARGIN): number {
    return Math.ceil(estimate * Math.max(MIN_APPLIED_RATIO, this.ratio(model)) * margin);
  }
}

/** What was sent with the last request: its estimate, the conversation's version, and the reported count. */
interface LastRequest {
  version: number;
  estimate: number;
  reported: number;
}

/**
 * The prompt tokens of the next request of one conversation: the last reported count plus the
 * calibrated estimate of the messages appended since. When the conversation was rewritten
 * (summarized, cut), the report no longer describes a prefix of it: the whole is estimated.
 */
export class PromptCounter {
  private last: LastRequest | undefined;

  constructor(
    readonly model: string,
    private readonly calibration: TokenCalibration,
  ) {}

  estimate(messages: readonly ModelMessage[], tools: readonly ModelToolSpec[]): number {
    return estimatePromptTokens(messages, tools);
  }

  /** Tokens of `messages` + `tools`, at conversation version `version`. */
  count(messages: readonly ModelMessage[], tools: readonly ModelToolSpec[], version: number): number {
    const estimate = this.estimate(messages, tools);
    const last = this.last;
    if (last && last.version === version && estimate >= last.estimate) {
      const added = estimate - last.estimate;
      return last.reported + (added > 0 ? this.calibration.scale(this.model, added, DELTA_MARGIN) + DELTA_SLACK : 0);
    }
    return this.calibration.scale(this.model, estimate);
  }

  /** The server's usage for a request whose messages were estimated at `estimate` at `version`. */
  observe(estimate: number, version: number, usage: ModelUsage): void {
    if (usage.estimated) {
      this.last = undefined; // our own guess: nothing learned, and no anchor for the next count
      return;
    }
    this.calibration.record(this.model, estimate, usage.promptTokens);
    this.last = { version, estimate, reported: usage.promptTokens };
  }
}
