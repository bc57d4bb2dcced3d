// Summarises a V8 .cpuprofile (as written by `npm run bench -- --profile`): the functions with the most
// self time, and the share of time spent under each of the project's own source files (inclusive).
//
//   npx tsx bench/profile-summary.ts bench/results/profiles/sqlite-payout-bankCode.cpuprofile [--top 30]
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly children?: number[];
}

export interface Profile {
  readonly nodes: ProfileNode[];
  readonly samples: number[];
  readonly timeDeltas: number[];
}

const where = (node: ProfileNode, root: string): string => {
  const { url, lineNumber, functionName } = node.callFrame;
  const file = url.startsWith('file://') ? path.relative(root, new URL(url).pathname) : url || '(native)';
  return `${functionName || '(anonymous)'} ${file}${url ? `:${lineNumber + 1}` : ''}`;
};

/** Project file, npm package, Node internals, or the native function's name (SQLite's `run`/`all`, crypto, I/O). */
function areaOf(node: ProfileNode, root: string): string {
  const { url, functionName } = node.callFrame;
  if (!url) return `native: ${functionName || '(anonymous)'}`;
  if (url.startsWith('node:')) return 'node internals';
  if (!url.startsWith('file://')) return url;
  const rel = path.relative(root, new URL(url).pathname);
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(rel);
  return pkg ? `npm: ${pkg[1]}` : rel;
}

export function summarise(file: string, top = 30): string {
  return summariseProfile(JSON.parse(fs.readFileSync(file, 'utf8')) as Profile, file, top);
}

export function summariseProfile(profile: Profile, label: string, top = 30): string {
  const root = process.cwd();
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

  const selfUs = new Map<number, number>();
  let totalUs = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    selfUs.set(id, (selfUs.get(id) ?? 0) + dt);
    totalUs += dt;
  });

  const selfByName = new Map<string, number>();
  const selfByArea = new Map<string, number>();
  const nativeByCaller = new Map<string, number>();
  const inclusiveByFile = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const node = byId.get(id)!;
    const name = where(node, root);
    selfByName.set(name, (selfByName.get(name) ?? 0) + us);
    const area = areaOf(node, root);
    if (!node.callFrame.url && !['(idle)', '(program)', '(garbage collector)'].includes(node.callFrame.functionName)) {
      // Native work (SQLite, crypto, socket writes): charge it to the nearest JavaScript caller outside node internals.
      let caller = parent.get(id);
      while (caller !== undefined && !byId.get(caller)!.callFrame.url.startsWith('file://')) caller = parent.get(caller);
      const key = `${node.callFrame.functionName || '(anonymous)'} ← ${caller === undefined ? '?' : where(byId.get(caller)!, root)}`;
      nativeByCaller.set(key, (nativeByCaller.get(key) ?? 0) + us);
    }
    selfByArea.set(area, (selfByArea.get(area) ?? 0) + us);
    // Inclusive per project file: count each file once per sample's stack.
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const url = byId.get(cur)!.callFrame.url;
      if (!url.startsWith('file://') || url.includes('/node_modules/')) continue;
      const rel = path.relative(root, new URL(url).pathname);
      if (seen.has(rel)) continue;
      seen.add(rel);
      inclusiveByFile.set(rel, (inclusiveByFile.get(rel) ?? 0) + us);
    }
  }
  const pct = (us: number): string => `${((100 * us) / totalUs).toFixed(1).padStart(5)} %`;
  const lines = [`${label}: ${(totalUs / 1e6).toFixed(1)} s sampled`, '', 'self time, top functions:'];
  for (const [name, us] of [...selfByName].sort((a, b) => b[1] - a[1]).slice(0, top)) lines.push(`  ${pct(us)}  ${name}`);
  lines.push('', 'self time by area (native calls of a package count as native):');
  for (const [name, us] of [...selfByArea].sort((a, b) => b[1] - a[1]).slice(0, 15)) lines.push(`  ${pct(us)}  ${name}`);
  lines.push('', 'native time by nearest JavaScript caller:');
  for (const [name, us] of [...nativeByCaller].sort((a, b) => b[1] - a[1]).slice(0, 12)) lines.push(`  ${pct(us)}  ${name}`);
  lines.push('', 'inclusive time under project files (stacks end at each await, so database calls show under native):');
  for (const [name, us] of [...inclusiveByFile].sort((a, b) => b[1] - a[1]).slice(0, 20)) lines.push(`  ${pct(us)}  ${name}`);
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values, positionals } = parseArgs({ options: { top: { type: 'string' } }, allowPositionals: true });
  if (positionals.length === 0) {
    process.stderr.write('usage: npx tsx bench/profile-summary.ts <file.cpuprofile> [--top N]\n');
    process.exit(2);
  }
  for (const file of positionals) process.stdout.write(`${summarise(file, Number(values.top ?? 30))}\n\n`);
}
