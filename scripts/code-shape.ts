// Measures the shape issue 45 asks about: the longest functions, import circles
// (files that reach themselves through relative imports, type-only ones included)
// and route files with a test beside them. Prints figures only; it changes nothing.
import { readFileSync, readdirSync, statSync, existsSync } from 'node:fs';
import { join, dirname, resolve, relative } from 'node:path';
import ts from 'typescript';

const root = resolve(import.meta.dirname, '..');
const packages = ['common', 'infra', 'worker', 'api', 'server', 'web'];

function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !/\.d\.ts$/.test(name) ? [path] : [];
  });
}

const files = packages.flatMap((p) => sourceFiles(join(root, p, 'src')));
const isTest = (f: string) => /\.(test|itest|rtest)\.tsx?$/.test(f);

interface Fn { name: string; file: string; lines: number }
const functions: Fn[] = [];
const imports = new Map<string, string[]>();

for (const file of files) {
  const text = readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const targets: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const spec = node.moduleSpecifier.text;
      if (spec.startsWith('.')) {
        const base = resolve(dirname(file), spec).replace(/\.js$/, '');
        const hit = [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].find((c) => existsSync(c));
        if (hit) targets.push(hit);
      }
    }
    if (!isTest(file) && (ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) || ts.isArrowFunction(node) || ts.isFunctionExpression(node)) && node.body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart()).line;
      const end = source.getLineAndCharacterOfPosition(node.end).line;
      let name = node.name?.getText() ?? '';
      if (!name && ts.isVariableDeclaration(node.parent)) name = node.parent.name.getText();
      if (!name && ts.isPropertyAssignment(node.parent)) name = node.parent.name.getText();
      functions.push({ name: name || '(anonymous)', file: relative(root, file), lines: end - start + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  imports.set(file, targets);
}

// Tarjan's strongly connected components: every component of more than one file is a circle.
let index = 0;
const indices = new Map<string, number>(); const low = new Map<string, number>();
const stack: string[] = []; const onStack = new Set<string>(); const circles: string[][] = [];
function connect(v: string): void {
  indices.set(v, index); low.set(v, index); index += 1; stack.push(v); onStack.add(v);
  for (const w of imports.get(v) ?? []) {
    if (!indices.has(w)) { connect(w); low.set(v, Math.min(low.get(v)!, low.get(w)!)); }
    else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, indices.get(w)!));
  }
  if (low.get(v) === indices.get(v)) {
    const component: string[] = [];
    let w: string;
    do { w = stack.pop()!; onStack.delete(w); component.push(w); } while (w !== v);
    if (component.length > 1) circles.push(component.map((f) => relative(root, f)).sort());
  }
}
for (const f of files) if (!indices.has(f)) connect(f);

// Folders whose source files import each other (e.g. worker/src/document <-> worker/src/ocr); a
// test importing a neighbour folder to drive its subject is no dependency of the product.
const folderEdges = new Set<string>();
for (const [from, targets] of imports) for (const to of targets) {
  if (isTest(from)) continue;
  const a = relative(root, dirname(from)); const b = relative(root, dirname(to));
  if (a !== b && !b.startsWith(`${a}/`) && !a.startsWith(`${b}/`)) folderEdges.add(`${a} -> ${b}`);
}
const folderCircles = [...folderEdges].filter((e) => { const [a, b] = e.split(' -> '); return a < b && folderEdges.has(`${b} -> ${a}`); });

const routes = files.filter((f) => f.endsWith('.routes.ts'));
const tested = routes.filter((f) => existsSync(f.replace(/\.ts$/, '.test.ts')) || existsSync(join(dirname(f), `${dirname(f).split('/').pop()}.routes.test.ts`)));

functions.sort((a, b) => b.lines - a.lines);
console.log(`source files: ${files.filter((f) => !isTest(f)).length} (+${files.filter(isTest).length} tests)`);
console.log(`functions over 60 lines: ${functions.filter((f) => f.lines > 60).length}; over 100: ${functions.filter((f) => f.lines > 100).length}`);
console.log('longest functions:');
for (const f of functions.slice(0, 12)) console.log(`  ${String(f.lines).padStart(4)}  ${f.name}  ${f.file}`);
console.log(`import circles (files): ${circles.length}`);
for (const c of circles) console.log(`  ${c.join(' , ')}`);
console.log(`folders whose source files import each other: ${folderCircles.length}`);
for (const e of folderCircles) console.log(`  ${e.replace(' -> ', ' <-> ')}`);
console.log(`route files with a test beside them: ${tested.length} of ${routes.length}`);
