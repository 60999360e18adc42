/**
 * The import's changes written into a settings.json text the way VS Code edits it: through
 * jsonc-parser's `modify`, so the user's comments, order and formatting stay as they were and only
 * the imported keys change. Keys are written flat (`"patchpilot.llm.model": ...`), as VS Code does.
 */
// The ESM build: esbuild bundles the UMD one with a dynamic require that breaks dist/cli.js.
import { applyEdits, modify } from 'jsonc-parser/lib/esm/main.js';
import type { SettingChange } from './mergeSettings';

export function applyChangesToSettingsText(text: string, changes: readonly SettingChange[]): string {
  let out = text.trim() ? text : '{}\n';
  for (const c of changes) {
    const edits = modify(out, [c.key], c.after, { formattingOptions: { insertSpaces: true, tabSize: 2, eol: '\n' } });
    out = applyEdits(out, edits);
  }
  return out.endsWith('\n') ? out : `${out}\n`;
}

/** The rules file an import writes in the workspace (read with AGENTS.md into every run's prompt). */
export function importedRulesFile(source: string): string {
  return `.patchpilot/rules/imported-${source}.md`;
}

export function rulesFileText(sourceLabel: string, file: string, text: string): string {
  return `<!-- Imported from ${sourceLabel} (${file}) by PatchPilot; edit freely. -->\n\n${text.trim()}\n`;
}
