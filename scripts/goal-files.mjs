#!/usr/bin/env node
// The product files one chat goal passes through (send -> patch applied -> tests run): every file of
// src/ on an import path from the chat's send handler to the step that applies a patch and to the
// tool that runs the tests. Imports are followed to the file that declares each imported name (a
// folder's index.ts re-exports are looked through, as a reader does), type imports included (a
// reader follows them too: the handler reaches the chat only through its context's type, the host
// being handed in). Prints the count, then the list, and how many files the entry reaches at all.
// Usage: node scripts/goal-files.mjs [--json]
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ENTRY = 'src/host/vscode/chat/handlers/send.ts';
const TARGETS = ['src/core/tools/patchApply.ts', 'src/core/tools/runTests.ts'];
const asJson = process.argv.includes('--json');

const configPath = path.join(root, 'tsconfig.json');
const parsed = ts.parseJsonConfigFileContent(ts.readConfigFile(configPath, ts.sys.readFile).config, ts.sys, root);
const program = ts.createProgram({ rootNames: parsed.fileNames, options: { ...parsed.options, noEmit: true } });
const checker = program.getTypeChecker();
const rel = (f) => path.relative(root, f).split(path.sep).join('/');
const isProduct = (f) => rel(f).startsWith('src/') && !f.endsWith('.d.ts');

/** The files that declare `symbol`, through re-exports and aliases. */
function declaringFiles(symbol) {
  const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  return (target.declarations ?? []).map((d) => d.getSourceFile().fileName).filter(isProduct);
}

function moduleFile(from, specifier) {
  const resolved = ts.resolveModuleName(specifier, from, parsed.options, ts.sys).resolvedModule;
  return resolved && isProduct(resolved.resolvedFileName) ? resolved.resolvedFileName : undefined;
}

/** What `file` imports, each name followed to its declaring file. */
function importsOf(sourceFile) {
  const out = new Set();
  const from = sourceFile.fileName;
  const add = (f) => f && f !== from && out.add(f);
  const visit = (node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const target = moduleFile(from, node.moduleSpecifier.text);
      if (!clause)
        add(target); // a side-effect import
      else {
        if (clause.name) declaringFiles(checker.getSymbolAtLocation(clause.name)).forEach(add);
        const bindings = clause.namedBindings;
        if (bindings && ts.isNamespaceImport(bindings)) add(target);
        if (bindings && ts.isNamedImports(bindings))
          for (const el of bindings.elements) {
            const symbol = checker.getSymbolAtLocation(el.name);
            if (symbol) declaringFiles(symbol).forEach(add);
          }
      }
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && ts.isStringLiteral(node.arguments[0] ?? {})) {
      add(moduleFile(from, node.arguments[0].text)); // a lazy import()
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return out;
}

const graph = new Map();
for (const sf of program.getSourceFiles()) if (isProduct(sf.fileName)) graph.set(sf.fileName, importsOf(sf));
const reverse = new Map();
for (const [from, tos] of graph) for (const to of tos) (reverse.get(to) ?? reverse.set(to, new Set()).get(to)).add(from);

function reach(starts, edges) {
  const seen = new Set(starts);
  const queue = [...starts];
  while (queue.length) for (const next of edges.get(queue.pop()) ?? []) if (!seen.has(next)) (seen.add(next), queue.push(next));
  return seen;
}

const abs = (p) => path.join(root, p);
for (const f of [ENTRY, ...TARGETS]) if (!graph.has(abs(f))) throw new Error(`${f} is not a product file of this tree (moved?): update goal-files.mjs`);
const fromEntry = reach([abs(ENTRY)], graph);
const missing = TARGETS.filter((t) => !fromEntry.has(abs(t)));
if (missing.length) throw new Error(`no import path from ${ENTRY} to ${missing.join(', ')}`);
const toTargets = reach(TARGETS.map(abs), reverse);
const onPath = [...fromEntry]
  .filter((f) => toTargets.has(f))
  .map(rel)
  .sort();

if (asJson) console.log(JSON.stringify({ entry: ENTRY, targets: TARGETS, count: onPath.length, reachable: fromEntry.size, files: onPath }, null, 2));
else {
  console.log(`${onPath.length} product files from ${ENTRY} to ${TARGETS.join(' and ')}:`);
  for (const f of onPath) console.log(`  ${f}`);
  console.log(`(${fromEntry.size} product files are reachable from the entry at all, libraries below the path included)`);
}
