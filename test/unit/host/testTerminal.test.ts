import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { TestRunTerminal, endLine, toTerminalText } from '../../../src/host/vscode/tests/testTerminalLogic';

/** What VS Code would see of the pseudoterminal: every write and the close code. */
function watch(terminal: TestRunTerminal): { written: () => string; closed: (number | void)[] } {
  const writes: string[] = [];
  const closed: (number | void)[] = [];
  terminal.onDidWrite((t) => writes.push(t));
  terminal.onDidClose((c) => closed.push(c));
  return { written: () => writes.join(''), closed };
}

describe('TestRunTerminal (a test run as a task pseudoterminal)', () => {
  test('line ends become CRLF; CRLF stays one line end', () => {
    assert.equal(toTerminalText('a\nb\r\nc\n'), 'a\r\nb\r\nc\r\n');
    const terminal = new TestRunTerminal('npm test', () => undefined);
    const seen = watch(terminal);
    terminal.open();
    terminal.write('ok 1 - parses\nnot ok 2 - formats\r\n');
    assert.ok(seen.written().endsWith('ok 1 - parses\r\nnot ok 2 - formats\r\n'), JSON.stringify(seen.written()));
    assert.ok(!/[^\r]\n/.test(seen.written()), 'no bare LF reaches the terminal');
  });

  test('the command heads the output; the end writes the exit status and closes with the exit code', () => {
    const terminal = new TestRunTerminal('node --test', () => undefined);
    const seen = watch(terminal);
    terminal.open();
    terminal.write('# fail 1\n');
    assert.deepEqual(seen.closed, []);
    terminal.end({ exitCode: 3, durationMs: 1234 });
    assert.match(seen.written(), /\$ node --test/);
    assert.match(seen.written(), /# fail 1\r\n\r\n.*exit code 3 after 1\.2 s/);
    assert.deepEqual(seen.closed, [3]);
    // Nothing after the end, and no second close.
    terminal.write('late\n');
    terminal.end({ exitCode: 0, durationMs: 1 });
    assert.ok(!seen.written().includes('late'));
    assert.deepEqual(seen.closed, [3]);
  });

  test('a killed run (timeout, cancel, no start) closes with 1 and says why', () => {
    const cases = [
      [{ exitCode: null, durationMs: 60_000, timedOut: true }, /timed out after 60\.0 s/],
      [{ exitCode: null, durationMs: 500, cancelled: true }, /cancelled after 0\.5 s/],
      [{ exitCode: null, durationMs: 0, error: 'could not start bwrap: ENOENT' }, /could not run: could not start bwrap: ENOENT/],
    ] as const;
    for (const [status, words] of cases) {
      const terminal = new TestRunTerminal('npm test', () => undefined);
      const seen = watch(terminal);
      terminal.open();
      terminal.end(status);
      assert.match(seen.written(), words);
      assert.deepEqual(seen.closed, [1]);
    }
    assert.equal(endLine({ exitCode: null, durationMs: 2000 }), 'killed after 2.0 s');
  });

  test('output before VS Code opens the terminal is kept and written on open, in order', () => {
    const terminal = new TestRunTerminal('npm test', () => undefined);
    const seen = watch(terminal);
    terminal.write('first\n');
    terminal.write('second\n');
    assert.equal(seen.written(), '', 'nothing is written before open');
    terminal.open();
    assert.match(seen.written(), /\$ npm test.*\r\nfirst\r\nsecond\r\n$/s);
    terminal.write('third\n');
    assert.ok(seen.written().endsWith('second\r\nthird\r\n'));
  });

  test('a run that ends before the terminal opens closes right after its output is written', () => {
    const terminal = new TestRunTerminal('npm test', () => undefined);
    const seen = watch(terminal);
    terminal.write('all 4 tests passed\n');
    terminal.end({ exitCode: 0, durationMs: 80 });
    assert.deepEqual(seen.closed, []);
    terminal.open();
    assert.match(seen.written(), /all 4 tests passed\r\n\r\n.*exit code 0 after 0\.1 s/);
    assert.deepEqual(seen.closed, [0]);
  });

  test('a huge output before open keeps its tail and says how much was left out', () => {
    const terminal = new TestRunTerminal('npm test', () => undefined);
    const seen = watch(terminal);
    const line = `${'x'.repeat(1023)}\n`;
    for (let i = 0; i < 1500; i++) terminal.write(line);
    terminal.write('the last line\n');
    terminal.open();
    assert.match(seen.written(), /^\x1b\[2m\(\d+ characters of earlier output not shown\)/);
    assert.ok(seen.written().endsWith('the last line\r\n'));
    assert.ok(seen.written().length < 1.1 * 1024 * 1024);
  });

  test('closing the terminal while the command runs stops it; after the end it does not', () => {
    let stops = 0;
    const terminal = new TestRunTerminal('npm test', () => stops++);
    terminal.open();
    terminal.close();
    assert.equal(stops, 1);
    terminal.end({ exitCode: null, durationMs: 10, cancelled: true });
    terminal.close();
    assert.equal(stops, 1);
  });
});
