/**
 * A run's steps that changed files (from the workspace's checkpoint store), each with "Restore to
 * before step N" and its preview: the chat's restore (shared/restorePreview.ts).
 */
import type { RestorePointView } from '../../src/protocol/restore';
import { el } from '../shared/components';
import type { RestoreControls } from '../shared/restorePreview';

export function renderRestorePoints(runId: string, points: readonly RestorePointView[], controls: RestoreControls): HTMLElement {
  const section = el('section', 'pp-restore-points');
  section.setAttribute('aria-label', 'Steps that changed files');
  section.append(el('h3', undefined, `Steps that changed files (${points.length})`));
  const list = el('ul', 'pp-items');
  for (const p of points) {
    const li = el('li', 'pp-item');
    const files = p.paths.slice(0, 6).join(', ') + (p.paths.length > 6 ? `, and ${p.paths.length - 6} more` : '');
    li.append(el('div', undefined, `Step ${p.step} (${p.tools.join(', ')}): ${files}`));
    li.append(
      controls.restoreButton(
        { runId, beforeStep: p.step, redo: false },
        { label: `Restore to Before Step ${p.step}`, name: `Restore to before step ${p.step}`, title: `Put back what steps ${p.step} and later changed` },
      ),
    );
    list.append(li);
  }
  section.append(list);
  return section;
}
