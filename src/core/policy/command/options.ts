import type { Word } from './types';

/**
 * Option spotting that errs on the side of finding a flag: GNU and git accept unambiguous
 * prefixes of long options (`--outp=x` is `--output=x`), and short flags combine (`-ni` has -i).
 */
export interface FoundOption {
  /** The canonical dangerous name that matched, e.g. "--output" or "-o". */
  flag: string;
  /** Its value when given (`--output=x`, `-ox`, or the next word). */
  value?: Word;
  index: number;
}

export interface OptionSpec {
  long?: string[];
  short?: string[];
  /** Options whose value is the next word when not attached. */
  takesValue?: boolean;
  /** Minimum prefix length accepted for long names (GNU-style abbreviations). Default: any unique-ish prefix of 3+ chars. */
  exactLong?: boolean;
}

export function findOptions(args: readonly Word[], spec: OptionSpec, stopAtDoubleDash = true): FoundOption[] {
  const out: FoundOption[] = [];
  for (let i = 0; i < args.length; i++) {
    const w = args[i]!;
    const v = w.value;
    if (v === '--' && stopAtDoubleDash) break;
    if (v.startsWith('--')) {
      const eq = v.indexOf('=');
      const name = eq >= 0 ? v.slice(0, eq) : v;
      for (const long of spec.long ?? []) {
        const hit = spec.exactLong ? name === long : name === long || (name.length >= 4 && long.startsWith(name));
        if (!hit) continue;
        const value = eq >= 0 ? { ...w, value: v.slice(eq + 1), raw: v.slice(eq + 1) } : spec.takesValue ? args[i + 1] : undefined;
        out.push({ flag: long, value, index: i });
        break;
      }
    } else if (v.startsWith('-') && v.length > 1) {
      const letters = v.slice(1);
      for (const s of spec.short ?? []) {
        const letter = s.slice(1);
        const at = letters.indexOf(letter);
        if (at < 0) continue;
        const attached = letters.slice(at + 1);
        const value = spec.takesValue ? (attached ? { ...w, value: attached, raw: attached } : args[i + 1]) : undefined;
        out.push({ flag: s, value, index: i });
      }
    }
  }
  return out;
}

/** Positional arguments (not options, not option values we know of). */
export function positionals(args: readonly Word[], valueOptions: readonly string[] = []): Word[] {
  const out: Word[] = [];
  let afterDashDash = false;
  for (let i = 0; i < args.length; i++) {
    const v = args[i]!.value;
    if (afterDashDash) out.push(args[i]!);
    else if (v === '--') afterDashDash = true;
    else if (v.startsWith('-') && v !== '-') {
      if (valueOptions.includes(v)) i++;
    } else out.push(args[i]!);
  }
  return out;
}
