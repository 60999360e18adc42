import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { SignedApprovalFile, type SignedApprovalFileOptions } from '../../../src/core/approvals';

type Entry = { value: string; approvedAt: number };

function options(root: string, userStateDir: string, extra: Partial<SignedApprovalFileOptions<Entry>> = {}): SignedApprovalFileOptions<Entry> {
  return {
    root,
    userStateDir,
    fileName: 'thing-approvals.json',
    version: 3,
    collection: 'things',
    what: 'thing approvals',
    parse: (e) => (typeof e.value === 'string' && typeof e.approvedAt === 'number' ? { value: e.value, approvedAt: e.approvedAt } : undefined),
    signed: (id, e) => [3, root, id, e.value, e.approvedAt],
    ...extra,
  };
}

function folders(): { root: string; user: string; other: string } {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'pp-signed-')));
  const root = path.join(base, 'ws');
  fs.mkdirSync(root);
  return { root, user: path.join(base, 'user'), other: path.join(base, 'other-user') };
}

const fileOf = (root: string) => path.join(root, '.patchpilot', 'thing-approvals.json');
const read = (root: string) => JSON.parse(fs.readFileSync(fileOf(root), 'utf8'));

describe('SignedApprovalFile (the one mechanism behind MCP, hook and model program approvals)', () => {
  it('keeps what was approved across instances of the same user key, ignored by git', () => {
    const { root, user } = folders();
    new SignedApprovalFile(options(root, user)).set('a', { value: 'x', approvedAt: 1 });
    assert.deepEqual(new SignedApprovalFile(options(root, user)).get('a'), { value: 'x', approvedAt: 1 });
    assert.match(fs.readFileSync(path.join(root, '.patchpilot', '.gitignore'), 'utf8'), /thing-approvals\.json\*/);
  });

  it('does not take an edited, planted or differently versioned entry for an approval', () => {
    const { root, user } = folders();
    new SignedApprovalFile(options(root, user)).set('a', { value: 'x', approvedAt: 1 });
    const stored = read(root);
    stored.things.a.value = 'edited';
    stored.things.b = { value: 'planted', approvedAt: 2, mac: '00'.repeat(32) };
    fs.writeFileSync(fileOf(root), JSON.stringify(stored));
    const file = new SignedApprovalFile(options(root, user));
    assert.equal(file.get('a'), undefined);
    assert.equal(file.get('b'), undefined);
    new SignedApprovalFile(options(root, user)).set('c', { value: 'y', approvedAt: 3 });
    assert.equal(new SignedApprovalFile(options(root, user, { version: 4 })).get('c'), undefined);
  });

  it("drops entries that do not verify when saving, or keeps them for the other key's owner when asked", () => {
    const { root, user, other } = folders();
    new SignedApprovalFile(options(root, other)).set('theirs', { value: 'x', approvedAt: 1 });
    new SignedApprovalFile(options(root, user, { keepUnverified: true })).set('mine', { value: 'y', approvedAt: 2 });
    assert.deepEqual(Object.keys(read(root).things).sort(), ['mine', 'theirs']);
    assert.deepEqual(new SignedApprovalFile(options(root, other)).get('theirs'), { value: 'x', approvedAt: 1 });
    new SignedApprovalFile(options(root, user)).set('mine', { value: 'z', approvedAt: 3 });
    assert.deepEqual(Object.keys(read(root).things), ['mine']);
  });

  it('says why approvals last for this session only when the state folder cannot be written', () => {
    const { root, user } = folders();
    fs.writeFileSync(path.join(root, '.patchpilot'), 'a file where the folder should be');
    const file = new SignedApprovalFile(options(root, user));
    file.set('a', { value: 'x', approvedAt: 1 });
    assert.deepEqual(file.get('a'), { value: 'x', approvedAt: 1 });
    assert.match(file.persistProblem ?? '', /^thing approvals are not saved \(.+\); they last for this session only$/);
  });

  it('tags ids per user key', () => {
    const { root, user, other } = folders();
    const mine = new SignedApprovalFile(options(root, user)).keyTag('label');
    assert.match(mine, /^[0-9a-f]{12}$/);
    assert.equal(new SignedApprovalFile(options(root, user)).keyTag('label'), mine);
    assert.notEqual(new SignedApprovalFile(options(root, other)).keyTag('label'), mine);
  });
});
