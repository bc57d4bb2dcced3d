// The layering of src/ as docs/architecture.md draws it: each folder may import only the folders its
// row names, and the type-only allowances in the third column only with `import type`. The table is
// read from the doc itself, so the picture and the code cannot drift apart.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '../..');
const SRC = path.join(ROOT, 'src');

interface Rule {
  readonly allowed: ReadonlySet<string>;
  readonly typeOnly: ReadonlySet<string>;
}

/** Rows `| \`folder\` | \`a\`, \`b\` | \`c\` |` of the "May import" table in docs/architecture.md. */
function documentedRules(): Map<string, Rule> {
  const doc = fs.readFileSync(path.join(ROOT, 'docs/architecture.md'), 'utf8');
  const start = doc.indexOf('| Layer | May import | Type-only |');
  expect(start, 'docs/architecture.md has the layer table').toBeGreaterThan(-1);
  const rules = new Map<string, Rule>();
  for (const line of doc.slice(start).split('\n').slice(2)) {
    if (!line.startsWith('|')) break;
    const [, layer, may, typeOnly] = line.split('|').map((cell) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!));
    rules.set(layer![0]!, { allowed: new Set(may), typeOnly: new Set(typeOnly) });
  }
  return rules;
}

/** The unit a file belongs to: its top folder under src/, `root` for src/*.ts, `sdk` for the SDK. */
function unitOf(file: string): string {
  const relative = path.relative(ROOT, file).split(path.sep);
  if (relative[0] === 'sdk') return 'sdk';
  return relative.length > 2 ? relative[1]! : 'root';
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

const IMPORT = /^\s*(import|export)\s+(type\s+)?(?:[^'"]*?\s+from\s+)?['"](\.{1,2}\/[^'"]+)['"]/gm;
const DYNAMIC = /import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

interface Edge {
  readonly from: string;
  readonly to: string;
  readonly typeOnly: boolean;
}

function edgesOf(file: string): Edge[] {
  const text = fs.readFileSync(file, 'utf8');
  const target = (spec: string) => path.resolve(path.dirname(file), spec);
  const edges: Edge[] = [];
  for (const match of text.matchAll(IMPORT)) edges.push({ from: file, to: target(match[3]!), typeOnly: match[2] !== undefined });
  // `import('../x.js').T` in a type position is a type-only reference.
  for (const match of text.matchAll(DYNAMIC)) edges.push({ from: file, to: target(match[1]!), typeOnly: true });
  return edges;
}

describe('layers of src/', () => {
  const rules = documentedRules();
  const files = sourceFiles(SRC);

  it('documents a rule for every folder of src/', () => {
    const units = new Set(files.map(unitOf));
    expect([...units].filter((unit) => !rules.has(unit)).sort()).toEqual([]);
  });

  it('has core import nothing of the project', () => {
    expect(rules.get('core')).toEqual({ allowed: new Set(), typeOnly: new Set() });
  });

  it('imports only down the layers the doc draws', () => {
    const offending: string[] = [];
    for (const file of files) {
      for (const edge of edgesOf(file)) {
        const from = unitOf(edge.from);
        const to = unitOf(edge.to);
        if (from === to) continue;
        const rule = rules.get(from)!;
        if (rule.allowed.has(to) || (edge.typeOnly && rule.typeOnly.has(to))) continue;
        offending.push(`${path.relative(ROOT, edge.from)} -> ${path.relative(ROOT, edge.to)}${edge.typeOnly ? ' (type)' : ''}`);
      }
    }
    expect(offending).toEqual([]);
  });
});
