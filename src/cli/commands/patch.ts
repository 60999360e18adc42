import { existsSync, readdirSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { ExitCode, UsageError, parseCommandLine } from '../io';
import { errorMessage } from '../../core/base';
import { PatchManager } from '../../core/patch';
import { NodeWorkspaceFs } from '../../host/node/nodeWorkspaceFs';
import { planPatch } from '../../core/patch';
import { proposedDiff } from '../../core/patch';
import type { ApplyResult, FileResult } from '../../core/patch';

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

const APPLY_OPTIONS = {
  cwd: { type: 'string' },
  'dry-run': { type: 'boolean' },
  json: { type: 'boolean' },
  accept: { type: 'string', multiple: true },
} as const;

async function applyCommand(argv: string[]): Promise<number> {
  const { values: args, positionals } = parseCommandLine(argv, APPLY_OPTIONS);
  if (positionals.length !== 1) throw new UsageError('expected exactly one PATCHFILE (or - for stdin)');
  const cwd = path.resolve(args.cwd ?? process.cwd());
  const st = await stat(cwd).catch(() => undefined);
  if (!st?.isDirectory()) throw new UsageError(`--cwd ${cwd} is not a folder`);
  const patchText = await readInput(positionals[0]!, 'patch file');
  const manager = new PatchManager({ root: cwd, fs: new NodeWorkspaceFs(cwd) });
  const dryRun = args['dry-run'] === true;
  let acceptedHunks: Set<string> | undefined;
  if (args.accept) {
    // The ids are the file and the hunk number the text output shows ("hunk #2" of a.ts is a.ts#2).
    const known = new Set((await manager.apply(patchText, { dryRun: true })).files.flatMap((f) => f.hunks.map((h) => h.id)));
    const unknown = args.accept.filter((id) => !known.has(id));
    if (unknown.length) {
      const list = known.size ? `the patch's hunks are ${[...known].join(', ')}` : 'the patch has no hunks';
      throw new UsageError(`unknown hunk id${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} for --accept: ${list}`);
    }
    acceptedHunks = new Set(args.accept);
  }
  const result = await manager.apply(patchText, { dryRun, ...(acceptedHunks ? { acceptedHunks } : {}) });
  for (const w of result.warnings ?? []) process.stderr.write(`patchpilot patch: warning: ${w}\n`);
  if (args.json) process.stdout.write(JSON.stringify(result, null, 2) + '\n');
  else {
    process.stdout.write(renderHuman(result));
    if (dryRun && result.ok) process.stdout.write(proposedDiff(result));
    if (!result.ok) process.stderr.write((result.error ?? 'the patch was refused') + '\n' + wrongFolderHint(result, cwd));
  }
  return result.ok ? ExitCode.ok : ExitCode.failed;
}

/**
 * When files the patch modifies are missing under DIR, the likely mistake is the folder: say which
 * one was searched, and name a folder above it (or just below it) that does have them.
 */
function wrongFolderHint(result: ApplyResult, cwd: string): string {
  const missing = result.files
    .filter((f) => f.status === 'refused' && f.operation !== 'create' && f.oldPath && !existsSync(path.join(cwd, f.oldPath)))
    .map((f) => f.oldPath!);
  if (missing.length === 0) return '';
  let hint = `The files were looked for under ${cwd}; run from the folder the patch's paths are relative to, or pass --cwd DIR.\n`;
  const holds = (dir: string) => missing.every((p) => existsSync(path.join(dir, p)));
  const above: string[] = [];
  for (let dir = cwd; dir !== path.dirname(dir);) above.push((dir = path.dirname(dir)));
  const below = readdirSync(cwd, { withFileTypes: true })
    .filter((e) => e.isDirectory() && !e.name.startsWith('.'))
    .map((e) => path.join(cwd, e.name));
  const found = [...above, ...below].find(holds);
  if (found) hint += `${missing.length === 1 ? `${missing[0]} exists` : 'They exist'} under ${found}: --cwd ${found}\n`;
  return hint;
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
    return { ok: false, id: null, error: `malformed input line: ${errorMessage(e)}` };
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
  const { values: args, positionals } = parseCommandLine(argv, { jsonl: { type: 'string' } });
  const file = args.jsonl;
  if (!file) throw new UsageError('--jsonl FILE is required');
  if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'`);
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
    const out = {
      id: c.value.id,
      status: plan.ok ? 'applied' : 'refused',
      files: Object.fromEntries(after),
      ...(plan.ok ? {} : { error: plan.error }),
      ms: Math.round(ms * 1000) / 1000,
    };
    process.stdout.write(JSON.stringify(out) + '\n');
  }
  return ExitCode.ok;
}
