import { existsSync, mkdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { ExitCode, UsageError, confirm, parseCommandLine } from '../io';
import { errorMessage } from '../../core/base';
import { ConfigError, cliUserSettingsFile, isSettingKey, providerById, readJsoncSettings, resolveSettings, type SettingKey } from '../../core/config';
import { writeFileAtomic } from '../../core/fs';
import { LinkedFolderError, writeFileConfined } from '../../core/fs';
import {
  applyChangesToSettingsText,
  IMPORT_SOURCES,
  ImportError,
  importedRulesFile,
  mergeIntoSettings,
  PLANNERS,
  renderImportPreview,
  rulesFileText,
  SOURCE_LABELS,
  type ImportPlan,
  type ImportSource,
} from '../../core/import';

const OPTIONS = { from: { type: 'string' }, workspace: { type: 'string' }, 'dry-run': { type: 'boolean' }, yes: { type: 'boolean' } } as const;

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandLine(argv, OPTIONS);
  const source = values.from as ImportSource | undefined;
  if (!source || !IMPORT_SOURCES.includes(source)) throw new UsageError(`--from ${IMPORT_SOURCES.join('|')} is required`);
  if (positionals.length !== 1) throw new UsageError(positionals.length ? `unexpected argument '${positionals[1]}'` : 'FILE is required');
  const file = path.resolve(positionals[0]!);
  const dir = path.resolve(values.workspace ?? process.cwd());
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UsageError(`--workspace ${dir} is not a folder`);
  const userFile = cliUserSettingsFile(process.env);
  if (!userFile) return fail('no user settings file: neither XDG_CONFIG_HOME nor HOME is an absolute path');

  let plan: ImportPlan;
  try {
    plan = PLANNERS[source](file, readFileSync(file, 'utf8'));
  } catch (err) {
    return fail(err instanceof ImportError ? err.message : `cannot read ${file}: ${errorMessage(err)}`);
  }
  let current: Record<string, unknown>;
  try {
    current = readJsoncSettings(userFile) ?? {};
  } catch (err) {
    // A malformed settings file is never overwritten: the user fixes it (line and column named) and imports again.
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`patchpilot import: nothing written; fix your user settings file first:\n${err.message}\n`);
    return ExitCode.usage;
  }
  const flat = Object.fromEntries(Object.entries(current).filter(([k]) => isSettingKey(k))) as Partial<Record<SettingKey, unknown>>;
  const merged = mergeIntoSettings(plan, flat);
  const rulesFile = plan.rules ? path.join(realpathSync(dir), importedRulesFile(source)) : undefined;
  process.stdout.write(
    renderImportPreview(plan, merged, {
      settings: `user settings file ${userFile}`,
      apiKey: `not written: the CLI reads keys from the environment; set ${keyVariable(plan)} before 'patchpilot run'`,
      ...(rulesFile ? { rules: `${rulesFile}${existsSync(rulesFile) ? ' (replaces it)' : ''}` } : {}),
    }),
  );
  if (values['dry-run']) {
    process.stderr.write('patchpilot import: dry run, nothing written\n');
    return ExitCode.ok;
  }
  if (!merged.changes.length && !rulesFile) {
    process.stderr.write('patchpilot import: nothing to write\n');
    return ExitCode.ok;
  }
  const text = existsSync(userFile) ? readFileSync(userFile, 'utf8') : '';
  const next = applyChangesToSettingsText(text, merged.changes);
  try {
    // The file as it will be must resolve: an import never leaves settings the next run refuses.
    resolveSettings({ layers: [{ scope: 'user', origin: userFile, values: flatAfter(flat, merged.changes) }], trusted: true });
  } catch (err) {
    return fail(`nothing written: the imported settings do not resolve: ${errorMessage(err)}`);
  }
  if (!values.yes) {
    if (!process.stdin.isTTY) return fail('refusing to write without --yes: stdin is not a terminal, so nobody can confirm (--dry-run shows the preview)');
    if (!(await confirm(`Write these settings${rulesFile ? ' and the rules file' : ''}? [y/N] `))) return fail('not imported (not confirmed)');
  }
  // The rules first: a workspace whose .patchpilot is a committed link out is refused before anything is written.
  if (rulesFile && plan.rules) {
    try {
      writeFileConfined(realpathSync(dir), rulesFile, rulesFileText(SOURCE_LABELS[source], file, plan.rules.text));
    } catch (err) {
      if (err instanceof LinkedFolderError) return fail(`nothing written: ${err.message}`);
      throw err;
    }
    process.stderr.write(`patchpilot import: wrote the rules to ${rulesFile}\n`);
  }
  if (merged.changes.length) {
    mkdirSync(path.dirname(userFile), { recursive: true });
    writeFileAtomic(userFile, next);
    process.stderr.write(`patchpilot import: wrote ${merged.changes.length} setting(s) to ${userFile}\n`);
  }
  return ExitCode.ok;
}

/** The variable the CLI reads the imported endpoint's key from (cliConfig.ts). */
function keyVariable(plan: ImportPlan): string {
  const own = providerById(plan.apiKey?.provider)?.keyEnvVar;
  return own ? `${own} (or PATCHPILOT_API_KEY)` : 'PATCHPILOT_API_KEY';
}

function flatAfter(flat: Partial<Record<SettingKey, unknown>>, changes: ReturnType<typeof mergeIntoSettings>['changes']): Record<string, unknown> {
  const out: Record<string, unknown> = { ...flat };
  for (const c of changes) {
    if (c.after === undefined) delete out[c.key];
    else out[c.key] = c.after;
  }
  return out;
}

function fail(message: string): number {
  process.stderr.write(`patchpilot import: ${message}\n`);
  return ExitCode.failed;
}
