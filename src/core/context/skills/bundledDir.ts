import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The bundled `skills/` folder for code running from `start`: `dist/` in the built CLI (the
 * folder sits next to `dist/` in the package), or a source folder under tsx. The nearest ancestor
 * whose package.json is PatchPilot's and that has a `skills/` folder. The extension passes its
 * extension path instead.
 */
export function findBundledSkillsDir(start: string): string | undefined {
  let dir = path.resolve(start);
  for (let i = 0; i < 6; i++) {
    const skills = path.join(dir, 'skills');
    if (existsSync(skills) && isPatchPilotPackage(path.join(dir, 'package.json'))) return skills;
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return undefined;
}

function isPatchPilotPackage(file: string): boolean {
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown }).name === 'patchpilot';
  } catch {
    return false;
  }
}
