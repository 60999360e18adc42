/**
 * The workspace's memory, in files the user owns: `.patchpilot/MEMORY.md` holds the long-term
 * facts (every prompt includes it, as the user left it), and `.patchpilot/memory/YYYY-MM-DD.md`
 * is the journal of what `remember` wrote on that day. The files are the only store: nothing is
 * cached elsewhere and re-written, so an edit or a deletion by the user is final. A fact the
 * journal shows PatchPilot wrote, and that MEMORY.md no longer holds, was deleted by the user:
 * `remember` refuses to add it again.
 *
 * Writes go through the state-folder check (real folders only, attacks.state) and the confined atomic write
 * (no link followed below the workspace root, temp file + rename).
 */
import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import { ensureRealFolderChain } from '../../history/stateFolder';
import { openConfined, writeConfined } from '../../policy/path/confinedIo';
import { PROMPT_FILES } from '../../policy/path/instructionFiles';

export const MEMORY_FILE = PROMPT_FILES.memory;
export const MEMORY_NOTES_DIR = PROMPT_FILES.memoryNotesDir;
export const MAX_FACT_CHARS = 500;
/** MEMORY.md and a day's notes are read up to this size. */
const MAX_MEMORY_BYTES = 512 * 1024;
/** Journal days looked at for deletions (the newest first). */
const MAX_NOTE_DAYS = 1_000;

const MEMORY_HEADER = [
  '# Memory',
  '',
  'Facts PatchPilot keeps about this workspace; every run reads this file. Edit or delete lines freely:',
  'a fact you delete is not added back.',
  '',
].join('\n');

const NOTE_LINE = /^- \[(\d{2}:\d{2})\] (.*)$/;

export type RememberOutcome =
  | { status: 'added'; notesFile: string }
  | { status: 'present' }
  /** The user deleted it from MEMORY.md after PatchPilot wrote it (on `day`). */
  | { status: 'deleted-by-user'; day: string };

/** A fact as one line of at most MAX_FACT_CHARS; throws with the reason otherwise. */
export function cleanFact(fact: string): string {
  const line = fact
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^[-*+]\s+/, '');
  if (!line) throw new Error('the fact is empty');
  if (line.length > MAX_FACT_CHARS) throw new Error(`the fact has ${line.length} characters; keep it to one or two sentences (at most ${MAX_FACT_CHARS})`);
  return line;
}

/** For comparing facts: case, spacing, list markers and final punctuation do not count. */
export function factKey(text: string): string {
  return text
    .toLowerCase()
    .replace(/^\s*[-*+]\s+/gm, '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[.!;,\s]+$/, '');
}

/** The local date and time of `now` as the journal writes them. */
export function journalStamp(now: Date): { day: string; time: string } {
  const pad = (n: number) => String(n).padStart(2, '0');
  return { day: `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`, time: `${pad(now.getHours())}:${pad(now.getMinutes())}` };
}

/** MEMORY.md as the user left it; undefined when there is none. */
export async function readMemoryFile(root: string): Promise<string | undefined> {
  return readStateFile(root, MEMORY_FILE);
}

/**
 * Adds a fact to MEMORY.md (appended, the rest of the file untouched) and to today's journal.
 * `goal`: what the run was working on, noted in the journal under the fact.
 */
export async function rememberFact(root: string, rawFact: string, options: { goal?: string; now?: Date } = {}): Promise<RememberOutcome> {
  const fact = cleanFact(rawFact);
  const key = factKey(fact);
  ensureRealFolderChain(root, path.join(root, MEMORY_NOTES_DIR));
  const current = await readStateFile(root, MEMORY_FILE);
  if (current !== undefined && containsFact(current, key)) return { status: 'present' };
  const deletedOn = await journalDayOf(root, key);
  if (deletedOn) return { status: 'deleted-by-user', day: deletedOn };

  const base = current === undefined ? MEMORY_HEADER : current.length === 0 || current.endsWith('\n') ? current : `${current}\n`;
  await writeConfined(root, MEMORY_FILE, `${base}- ${fact}\n`, { atomic: true });

  const { day, time } = journalStamp(options.now ?? new Date());
  const notesFile = `${MEMORY_NOTES_DIR}/${day}.md`;
  const notes = (await readStateFile(root, notesFile)) ?? `# Memory notes ${day}\n\n`;
  const goal = options.goal?.replace(/\s+/g, ' ').trim();
  const entry = `- [${time}] ${fact}\n${goal ? `  - while working on: ${goal.length > 160 ? `${goal.slice(0, 157)}...` : goal}\n` : ''}`;
  await writeConfined(root, notesFile, `${notes}${notes.endsWith('\n') ? '' : '\n'}${entry}`, { atomic: true });
  return { status: 'added', notesFile };
}

/** The fact is a line of the text (list marker, case and final punctuation aside). */
function containsFact(text: string, key: string): boolean {
  return text.split('\n').some((line) => factKey(line) === key);
}

/** The day the journal shows PatchPilot wrote this fact (newest first), if it ever did. */
async function journalDayOf(root: string, key: string): Promise<string | undefined> {
  const dir = path.join(root, MEMORY_NOTES_DIR);
  const st = await lstat(dir).catch(() => undefined);
  if (!st?.isDirectory()) return undefined;
  const days = (await readdir(dir))
    .filter((n) => /^\d{4}-\d{2}-\d{2}\.md$/.test(n))
    .sort()
    .reverse()
    .slice(0, MAX_NOTE_DAYS);
  for (const name of days) {
    const text = await readStateFile(root, `${MEMORY_NOTES_DIR}/${name}`).catch(() => undefined);
    for (const line of text?.split('\n') ?? []) {
      const m = NOTE_LINE.exec(line);
      if (m && factKey(m[2]!) === key) return name.slice(0, 10);
    }
  }
  return undefined;
}

/** A file of the state folder through a confined open (no link followed); undefined when missing. */
async function readStateFile(root: string, rel: string): Promise<string | undefined> {
  const st = await lstat(path.join(root, rel)).catch(() => undefined);
  if (!st) return undefined;
  const { handle } = await openConfined(root, rel, 'r');
  try {
    const size = (await handle.stat()).size;
    const buffer = Buffer.alloc(Math.min(size, MAX_MEMORY_BYTES));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
}
