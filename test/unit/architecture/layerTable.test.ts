// The layer table in eslint.config.mjs is a structure, not a list someone remembers to extend: every
// folder of src/core has a row (or no import rule would apply to it beyond the catch-all), and every
// row names a folder that exists.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(__dirname, '../../..');

async function layerTable(): Promise<Record<string, { allow?: string[]; deny?: string[] }>> {
  const config = await import(pathToFileURL(path.join(root, 'eslint.config.mjs')).href);
  return config.CORE_LAYERS;
}

test('every folder of src/core has a row in the layer table, and every row a folder', async () => {
  const table = await layerTable();
  const folders = readdirSync(path.join(root, 'src/core'), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
  assert.deepEqual(
    folders.filter((f) => !(f in table)),
    [],
    'add these folders to CORE_LAYERS in eslint.config.mjs',
  );
  assert.deepEqual(
    Object.keys(table).filter((f) => !folders.includes(f)),
    [],
    'these rows name no folder',
  );
});

test('every folder a row allows or denies is itself a row', async () => {
  const table = await layerTable();
  for (const [folder, rule] of Object.entries(table)) {
    for (const other of [...(rule.allow ?? []), ...(rule.deny ?? [])]) assert.ok(other in table, `${folder} names ${other}, which has no row`);
  }
});
