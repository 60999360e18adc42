// Whether a save reached the disk (src/host/vscode/workspace/saveOutcome.ts), with a real file: VS Code's
// TextDocument.save() is the one part played here, as it behaves under load (it answers false for a
// save that wrote, or writes a moment after answering).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { savedToDisk } from '../../../src/host/vscode/workspace/saveOutcome';

const BEFORE = "module.exports = () => 'helo, world';\n";
const AFTER = "module.exports = () => 'hello, world';\n";

function workspace(): { file: string; readDisk: () => Promise<string | undefined>; done: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'pp-save-outcome-'));
  const file = path.join(dir, 'greet.js');
  writeFileSync(file, BEFORE);
  return {
    file,
    readDisk: async () => {
      try {
        return readFileSync(file, 'utf8');
      } catch {
        return undefined;
      }
    },
    done: () => rmSync(dir, { recursive: true, force: true }),
  };
}

describe('savedToDisk', () => {
  test('a save VS Code reports as failed that wrote the text counts as saved (the e2e failure under load)', async () => {
    const w = workspace();
    try {
      const saved = await savedToDisk(() => [AFTER], {
        save: async () => {
          writeFileSync(w.file, AFTER);
          return false;
        },
        readDisk: w.readDisk,
      });
      assert.equal(saved, true);
    } finally {
      w.done();
    }
  });

  test('a save that reaches the disk a moment after VS Code answered false counts as saved', async () => {
    const w = workspace();
    try {
      const started = Date.now();
      const saved = await savedToDisk(() => [AFTER], {
        save: async () => {
          setTimeout(() => writeFileSync(w.file, AFTER), 300);
          return false;
        },
        readDisk: w.readDisk,
      });
      assert.equal(saved, true);
      assert.ok(Date.now() - started >= 250, 'it waited for the write');
    } finally {
      w.done();
    }
  });

  test('a save that never wrote is a failure, after the settle time', async () => {
    const w = workspace();
    try {
      const saved = await savedToDisk(() => [AFTER], { save: async () => false, readDisk: w.readDisk }, 300);
      assert.equal(saved, false);
      assert.equal(readFileSync(w.file, 'utf8'), BEFORE);
    } finally {
      w.done();
    }
  });

  test('the editor text counts too (a save participant trimmed it); BOM and line endings aside', async () => {
    const w = workspace();
    try {
      const trimmed = AFTER.replace('\n', '\r\n');
      const saved = await savedToDisk(() => [`${AFTER}   `, `\uFEFF${AFTER}`], {
        save: async () => {
          writeFileSync(w.file, trimmed);
          return false;
        },
        readDisk: w.readDisk,
      });
      assert.equal(saved, true);
    } finally {
      w.done();
    }
  });

  test('VS Code saying true is believed without reading the disk', async () => {
    let reads = 0;
    const saved = await savedToDisk(() => [AFTER], {
      save: async () => true,
      readDisk: async () => {
        reads++;
        return undefined;
      },
    });
    assert.equal(saved, true);
    assert.equal(reads, 0);
  });

  test('an unreadable file is no proof of a save', async () => {
    const saved = await savedToDisk(() => [AFTER], { save: async () => false, readDisk: async () => undefined }, 200);
    assert.equal(saved, false);
  });
});
