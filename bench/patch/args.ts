/** Command-line flags of `npm run bench:patch -- ...`. */
export interface BenchArgs {
  packages?: string[];
  seed: number;
  /** Max cases per kind; 0 = every source file that fits the kind. */
  limit: number;
  tools?: string[];
  kinds?: string[];
  json?: string;
  maxFilesPerVersion: number;
  perfReps: number;
  skipPerf: boolean;
  help?: boolean;
  /** PatchPilot CLI bundle to run (default dist/cli.js). */
  cli?: string;
}

export const USAGE = `Usage: npm run bench:patch -- [flags]
  --packages a,b,c   npm packages to build the corpus from (default: a pinned set of 10)
  --seed N           seed for version choice and every corruption (default 1)
  --limit N          max cases per kind (default 0 = no limit)
  --tools x,y        only these tools (patchpilot,git,git-lax,gnu-patch,jsdiff)
  --kinds x,y        only these case kinds
  --max-files N      max changed files taken from one version pair (default 12)
  --perf-reps N      repetitions of the 6-hunk/10k-line timing (default 200)
  --no-perf          skip that timing
  --json FILE        also write every raw result to FILE
  --cli FILE         PatchPilot CLI to run instead of dist/cli.js (e.g. a bundle of a work in progress)`;

const list = (v: string): string[] =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

function int(flag: string, v: string | undefined): number {
  const n = Number(v);
  if (v === undefined || !Number.isInteger(n) || n < 0) throw new Error(`${flag} needs a non-negative integer, got ${v ?? 'nothing'}`);
  return n;
}

export function parseBenchArgs(argv: string[]): BenchArgs {
  const a: BenchArgs = { seed: 1, limit: 0, maxFilesPerVersion: 12, perfReps: 200, skipPerf: false };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${flag} needs a value`);
      return v;
    };
    switch (flag) {
      case '--packages':
        a.packages = list(value());
        break;
      case '--seed':
        a.seed = int(flag, value());
        break;
      case '--limit':
        a.limit = int(flag, value());
        break;
      case '--tools':
        a.tools = list(value());
        break;
      case '--kinds':
        a.kinds = list(value());
        break;
      case '--max-files':
        a.maxFilesPerVersion = int(flag, value());
        break;
      case '--perf-reps':
        a.perfReps = int(flag, value());
        break;
      case '--no-perf':
        a.skipPerf = true;
        break;
      case '--cli':
        a.cli = value();
        break;
      case '--json':
        a.json = value();
        break;
      case '--help':
      case '-h':
        a.help = true;
        break;
      default:
        throw new Error(`unknown flag ${flag}`);
    }
  }
  return a;
}
