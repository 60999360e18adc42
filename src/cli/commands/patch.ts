import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { ExitCode, UsageError, flag, parseArgs, rejectUnknownFlags } from '../io';
import { PatchManager } from '../../core/patch/patchManager';
import { planPatch } from '../../core/patch/plan';
import type { ApplyResult, FileResult } from '../../core/patch/types';

export const usage = `Usage:
  patchpilot patch apply PATCHFILE [--cwd DIR] [--dry-run] [--json] [--accept ID ...]
      Apply a unified diff, apply_patch envelope or SEARCH/REPLACE patch to the files under DIR
      (default: the current folder). PATCHFILE "-" reads stdin. All files change or none do.
      --dry-run   compute and report, write nothing
      --json      print the full result as JSON on stdout
      --accept ID apply only these hunks (ids like src/a.ts#0, repeatable); others are rejected
      Exit: 0 applied, 1 refused (reasons on stderr, or in the JSON), 2 usage error.

  patchpilot patch eval --jsonl FILE
      For each input line {"id","files":{path:text},"patch"} print one line
      {"id","status":"applied"|"refused","files":{path:newText},"error"?,"ms"} computed in memory.
      FILE "-" reads stdin. Nothing is written to disk.`;

export async function run(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === 'apply') return applyCommand(rest);
  if (sub === 'eval') return evalCommand(rest);
  throw new UsageError(sub ? `unknown subcommand '${sub}'` : 'missing subcommand (apply or eval)');
}

async function readInput(file: string, what: string): Promise<string> {
  if (file === '-') {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  }
  try {
    return await readFile(file, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read ${what} ${file}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
  }
}

async function applyCommand(argv: string[]): Promise<number> {
  const args = parseArgs(argv, ['dry-run', 'json']);
  rejectUnknownFlags(args, ['cwd', 'dry-run', 'json', 'accept']);
  if (args.positionals.length !== 1) throw new UsageError('expected exactly one PATCHFILE (or - for stdin)');
  const cwd = path.resolve(flag(args, 'cwd') ?? process.cwd());
  const st = await stat(cwd).catch(() => undefined);
  if (!st?.isDirectory()) throw new UsageError(`--cwd ${cwd} is not a folder`);
  const patchText = await readInput(args.positionals[0]!, 'patch file');
  const accepted = args.flags.get('accept');
  const result = await new PatchManager({ root: cwd }).apply(patchText, {
    dryRun: flag(args, 'dry-run') === 'true',
    ...(accepted ? { acceptedHunks: new Set(accepted) } : {}),
  });
  if (flag(args, 'json') === 'true') process.stdout.write(JSON.stringify(result, null, 2) + '\n');
  else {
    process.stdout.write(renderHuman(result));
    if (!result.ok) process.stderr.write((result.error ?? 'the patch was refused') + '\n');
  }
  return result.ok ? ExitCode.ok : ExitCode.failed;
}

const OP_MARK: Record<FileResult['operation'], string> = { modify: 'M', create: 'A', delete: 'D', rename: 'R' };

function renderHuman(r: ApplyResult): string {
  const out: string[] = [];
  for (const f of r.files) {
    const name = f.operation === 'rename' ? `${f.oldPath} -> ${f.newPath}` : (f.newPath ?? f.oldPath ?? '?');
    out.push(`${OP_MARK[f.operation]} ${name}: ${f.status}`);
    for (const h of f.hunks) {
      const range = h.range ? (h.range.end >= h.range.start ? ` lines ${h.range.start}-${h.range.end}` : ` at line ${h.range.start}`) : '';
      const how = h.strategy ? ` ${h.strategy}${h.confidence !== undefined ? ` (${h.confidence.toFixed(2)})` : ''}` : '';
      out.push(`  hunk #${h.index + 1} ${h.status}${range}${how}${h.note ? ` - ${h.note}` : ''}`);
    }
  }
  const verdict = r.ok ? (r.dryRun ? 'dry run: the patch would apply; nothing written' : 'applied') : 'refused: nothing written';
  out.push(verdict);
  return out.join('\n') + '\n';
}

interface EvalCase {
  id: unknown;
  files: Record<string, string>;
  patch: string;
}

function parseCase(line: string): { ok: true; value: EvalCase } | { ok: false; id: unknown; error: string } {
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch (e) {
    return { ok: false, id: null, error: `malformed input line: ${e instanceof Error ? e.message : String(e)}` };
  }
  const o = v as Partial<EvalCase> | null;
  const id = o && typeof o === 'object' ? (o.id ?? null) : null;
  if (!o || typeof o !== 'object' || Array.isArray(o)) return { ok: false, id, error: 'malformed input line: expected a JSON object' };
  if (typeof o.patch !== 'string') return { ok: false, id, error: 'malformed input line: "patch" must be a string' };
  if (!o.files || typeof o.files !== 'object' || Array.isArray(o.files) || !Object.values(o.files).every((t) => typeof t === 'string')) {
    return { ok: false, id, error: 'malformed input line: "files" must map paths to strings' };
  }
  return { ok: true, value: o as EvalCase };
}

async function evalCommand(argv: string[]): Promise<number> {
  const args = parseArgs(argv, []);
  rejectUnknownFlags(args, ['jsonl']);
  const file = flag(args, 'jsonl');
  if (!file) throw new UsageError('--jsonl FILE is required');
  if (args.positionals.length > 0) throw new UsageError(`unexpected argument '${args.positionals[0]}'`);
  const input = await readInput(file, 'input');
  for (const line of input.split('\n')) {
    if (line.trim() === '') continue;
    const c = parseCase(line);
    if (!c.ok) {
      process.stdout.write(JSON.stringify({ id: c.id, status: 'refused', files: {}, error: c.error, ms: 0 }) + '\n');
      continue;
    }
    const files = new Map(Object.entries(c.value.files));
    const t0 = performance.now();
    const plan = planPatch(c.value.patch, files);
    const ms = performance.now() - t0;
    // A Map, not an object: paths like "__proto__" must stay plain keys.
    const after = new Map(files);
    if (plan.ok) {
      for (const [p, text] of plan.finalTexts) {
        if (text === null) after.delete(p);
        else after.set(p, text);
      }
    }
    const out = { id: c.value.id, status: plan.ok ? 'applied' : 'refused', files: Object.fromEntries(after), ...(plan.ok ? {} : { error: plan.error }), ms: Math.round(ms * 1000) / 1000 };
    process.stdout.write(JSON.stringify(out) + '\n');
  }
  return ExitCode.ok;
}
