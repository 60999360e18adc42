/**
 * One entry for every runner's output: the first parser that recognizes it reads it. The order
 * goes from the most specific marks to the least (vitest's "Test Files" before jest's "Tests:",
 * pytest and unittest before TAP's loose `ok N`, TAP last of the runners), then the generic reader.
 */
import { stripVTControlCharacters } from 'node:util';
import { ava } from './ava';
import { cargo } from './cargo';
import { generic } from './generic';
import { goTest } from './goTest';
import { jasmine } from './jasmine';
import { jest } from './jest';
import { junit } from './junit';
import { mocha } from './mocha';
import { nodeSpec } from './nodeSpec';
import { pytest } from './pytest';
import { tap } from './tap';
import type { RunnerParser, TestSummary } from './types';
import { unittest } from './unittest';
import { vitest } from './vitest';

export { FAILURE_LINE } from './generic';
export { MAX_FAILURES, type TestFailure, type TestFramework, type TestSummary } from './types';

const PARSERS: readonly RunnerParser[] = [junit, pytest, unittest, cargo, vitest, jest, jasmine, ava, mocha, nodeSpec, goTest, tap, generic];

export function summarizeTestOutput(raw: string): TestSummary {
  const text = stripVTControlCharacters(raw);
  const lines = text.split(/\r?\n/);
  for (const parse of PARSERS) {
    const summary = parse(text, lines);
    if (summary) return summary;
  }
  return { failures: [] };
}
