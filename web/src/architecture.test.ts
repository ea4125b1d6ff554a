/**
 * The import graph of the web app (issue 25: "web features import each other only through
 * index.ts"; issue 32 item 2: the floors). Every .ts/.tsx file under src except tests
 * (*.test.ts(x) and src/test/) is read and its relative imports resolved, type-only and lazy
 * `import()` ones included:
 *
 * 1. A feature's folder (features/<name>/) is entered from outside only through its index.ts:
 *    other features and app/ import `features/<name>`, never `features/<name>/Some/File`. Inside
 *    a feature, files use relative paths to each other and never their own index.ts. The few
 *    exceptions are in ALLOWED, each with its reason.
 * 2. The folders are floors (FLOORS): a file imports nothing of a floor above its own. api/ and
 *    lib/ are lowest, then core/, ui/, the features, and app/ (the shell) on top.
 * 3. No import cycle runs between areas or through a feature's index.ts (barrels that import
 *    each other load half-initialised modules), and no loop runs between features at all: the
 *    graph of which feature imports which (type-only and lazy imports count) has no cycle.
 * 4. docs/architecture.md "Web folders" is the truth: each folder (app/, api/, lib/, core/, ui/
 *    and every features/<name>) has a row, imports only the features its "May import" column
 *    names, and uses every one it names.
 */
import { describe, expect, it } from 'vitest';
import architectureDoc from '../../docs/architecture.md?raw';

const raw = import.meta.glob<string>(['./**/*.ts', './**/*.tsx', '!./**/*.test.ts', '!./**/*.test.tsx', '!./test/**'], {
  query: '?raw',
  import: 'default',
  eager: true,
});

/** Source files by their path under src ('features/admin/AdminPage.tsx'). */
const sources = new Map(Object.entries(raw).map(([key, text]) => [key.replace(/^\.\//, ''), text]));

/**
 * Imports from outside a feature into it other than its index.ts. `from` and `to` are paths under
 * src; `*` stands for one path segment.
 */
const ALLOWED: ReadonlyArray<{ from: string; to: string; reason: string }> = [
  {
    from: 'features/index.ts',
    to: 'features/*/register.ts',
    reason:
      "the registration manifest (main.tsx imports it once): a feature's register.ts registers its lazily " +
      'loaded routes, selectors and header actions. It stays out of index.ts, which other features import: ' +
      'there it would register the feature whenever another one uses it and pull that into their chunks.',
  },
  {
    from: 'features/*/register.ts',
    to: 'features/realtime/cardActions.ts',
    reason:
      "the notification cards' actions (previews, loadables) register here at start-up: through realtime's " +
      'index.ts the registration would pull the socket, its stores and their hooks into the login bundle.',
  },
];

/**
 * The floors of the app, lowest first (issue 32 item 2): a file imports only its own floor and the
 * ones below — api/ and lib/ nothing above them; core/ (toasts, session, selection and the
 * selection chain, paths, permissions, the feature registry) api/ and lib/; ui/ (the kit) those
 * and core/; features/ all of those (each other only as the Web folders table says); app/ (the
 * shell, on top) everything.
 */
const FLOORS: readonly (readonly string[])[] = [['api', 'lib'], ['core'], ['ui'], ['features'], ['app']];

/** The floor of a file under src (its index in FLOORS); -1 for the files at src's root. */
const floorOf = (path: string) => FLOORS.findIndex((floor) => floor.includes(path.split('/')[0]));

interface Import {
  /** The specifier as written ('../widgets/links/LinkManagerDialog'). */
  specifier: string;
  /** The file it resolves to, under src; null when it leaves src or names a non-source file. */
  target: string | null;
  /** `import type` / `export type`: erased at build time, no runtime edge. */
  typeOnly: boolean;
}

/** The source without comments; strings and template literals are kept (a string ends at a newline). */
function stripComments(source: string): string {
  let out = '';
  let i = 0;
  while (i < source.length) {
    const c = source[i];
    const next = source[i + 1];
    if (c === '/' && next === '/') {
      while (i < source.length && source[i] !== '\n') i++;
    } else if (c === '/' && next === '*') {
      const end = source.indexOf('*/', i + 2);
      i = end < 0 ? source.length : end + 2;
      out += ' ';
    } else if (c === "'" || c === '"' || c === '`') {
      let j = i + 1;
      while (j < source.length && source[j] !== c && (c === '`' || source[j] !== '\n')) j += source[j] === '\\' ? 2 : 1;
      out += source.slice(i, j + 1);
      i = j + 1;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

const STATIC_IMPORT = /(?:^|[;\n}])\s*(import|export)\s+(type\s+)?([^;'"`]*?)\bfrom\s*['"]([^'"\n]+)['"]/g;
const SIDE_EFFECT_IMPORT = /(?:^|[;\n}])\s*import\s*['"]([^'"\n]+)['"]/g;
const DYNAMIC_IMPORT = /\bimport\s*\(\s*['"]([^'"\n]+)['"]\s*\)/g;

/** Normalises 'a/b/../c/./d' to 'a/c/d'; null when it climbs out of src. */
function normalize(path: string): string | null {
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (parts.length === 0) return null;
      parts.pop();
    } else parts.push(part);
  }
  return parts.join('/');
}

/** The source file a relative specifier names, as TypeScript's bundler resolution finds it. */
function resolveImport(from: string, specifier: string, files: ReadonlySet<string>): string | null {
  const dir = from.includes('/') ? from.slice(0, from.lastIndexOf('/')) : '';
  const base = normalize(`${dir}/${specifier.split('?')[0]}`);
  if (base === null) return null;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`]) {
    if (files.has(candidate)) return candidate;
  }
  return null;
}

/** The relative imports of one file. */
function importsOf(file: string, source: string, files: ReadonlySet<string>): Import[] {
  const code = stripComments(source);
  const found: Import[] = [];
  const add = (specifier: string, typeOnly: boolean) => {
    if (!specifier.startsWith('.')) return;
    found.push({ specifier, target: resolveImport(file, specifier, files), typeOnly });
  };
  for (const m of code.matchAll(STATIC_IMPORT)) add(m[4], !!m[2]);
  for (const m of code.matchAll(SIDE_EFFECT_IMPORT)) add(m[1], false);
  for (const m of code.matchAll(DYNAMIC_IMPORT)) add(m[1], false);
  return found;
}

/** The feature a path belongs to ('features/widgets/links/X.tsx' → 'widgets'), or null. */
const featureOf = (path: string): string | null => /^features\/([^/]+)\//.exec(path)?.[1] ?? null;

const isFeatureIndex = (path: string) => /^features\/[^/]+\/index\.tsx?$/.test(path);

const matches = (pattern: string, path: string) =>
  new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]+')}$`).test(path);

const allowed = (from: string, to: string) => ALLOWED.some((a) => matches(a.from, from) && matches(a.to, to));

/** The broken rules of one import, as lines naming the file and the import. */
function violations(from: string, imp: Import): string[] {
  const to = imp.target;
  if (to === null) return [];
  const problems: string[] = [];
  const target = featureOf(to);
  const source = featureOf(from);
  if (target !== null && target !== source && !isFeatureIndex(to) && !allowed(from, to)) {
    problems.push(
      `${from} imports '${imp.specifier}' (${to}): outside features/${target} use its index.ts ('features/${target}')`,
    );
  }
  if (target !== null && target === source && isFeatureIndex(to) && !isFeatureIndex(from)) {
    problems.push(
      `${from} imports '${imp.specifier}': a file of features/${target} imports its own index.ts; use a relative path`,
    );
  }
  const [below, above] = [floorOf(from), floorOf(to)];
  if (below >= 0 && above > below) {
    problems.push(
      `${from} imports '${imp.specifier}' (${to}): ${to.split('/')[0]}/ is a floor above ${from.split('/')[0]}/`,
    );
  }
  return problems;
}

/** A row of docs/architecture.md "Web folders": its folders and the features they may import. */
interface FolderRow {
  folders: string[];
  mayImport: string[];
}

/**
 * The rows of the "### Web folders" table of the architecture doc. A folder is written `app/` or
 * `features/<name>`, kept as 'app' or 'features/<name>'; the third column names the features the
 * row's folders may import (`auth`, `realtime`; '—' none).
 */
function webFolderRows(doc: string): FolderRow[] {
  const start = doc.indexOf('\n### Web folders\n');
  if (start < 0) throw new Error('docs/architecture.md has no "### Web folders" section');
  const rest = doc.slice(start + 1);
  const end = rest.slice(1).search(/\n#{1,3} /);
  const section = end < 0 ? rest : rest.slice(0, end + 1);
  const code = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
  return section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => {
      const cells = line.split('|').slice(1, -1);
      if (cells.length !== 3) throw new Error(`a Web folders row without three cells: ${line}`);
      return { folders: code(cells[0]).map((f) => f.replace(/\/$/, '')), mayImport: code(cells[2]) };
    });
}

/** The folder of a file for the Web folders table: 'features/<name>' or its top folder; null at src's root. */
const folderOf = (path: string): string | null => {
  const feature = featureOf(path);
  if (feature !== null) return `features/${feature}`;
  return path.includes('/') && !path.startsWith('features/') ? path.slice(0, path.indexOf('/')) : null;
};

/**
 * What the Web folders table gets wrong about the imports: folders without a row, rows naming no
 * folder or feature that exists, imports of a feature the row does not name, and named features
 * no folder of the row imports.
 */
function folderTableProblems(rows: readonly FolderRow[], imports: ReadonlyMap<string, readonly Import[]>): string[] {
  const problems: string[] = [];
  const folders = new Set([...imports.keys()].map(folderOf).filter((f) => f !== null));
  const features = new Set([...imports.keys()].map(featureOf).filter((f) => f !== null));
  const rowOf = new Map(rows.flatMap((row) => row.folders.map((folder) => [folder, row] as const)));
  for (const folder of folders) if (!rowOf.has(folder)) problems.push(`${folder}/ has no row`);
  for (const row of rows) {
    for (const folder of row.folders)
      if (!folders.has(folder)) problems.push(`the row of ${folder} names no folder of src`);
    for (const feature of row.mayImport)
      if (!features.has(feature))
        problems.push(`the row of ${row.folders.join(', ')} names ${feature}, which is no feature`);
  }
  const used = new Map<FolderRow, Set<string>>();
  for (const [file, list] of imports) {
    const folder = folderOf(file);
    const row = folder === null ? undefined : rowOf.get(folder);
    if (!row) continue;
    for (const imp of list) {
      const target = imp.target === null ? null : featureOf(imp.target);
      if (target === null || `features/${target}` === folder) continue;
      if (!used.has(row)) used.set(row, new Set());
      used.get(row)!.add(target);
      if (!row.mayImport.includes(target))
        problems.push(`${file} imports features/${target}, which the row of ${folder} does not name`);
    }
  }
  for (const row of rows) {
    for (const feature of row.mayImport) {
      if (!used.get(row)?.has(feature))
        problems.push(`the row of ${row.folders.join(', ')} names ${feature}, which none of them imports`);
    }
  }
  return [...new Set(problems)];
}

/** The area a file belongs to for the cycle rule: its feature folder, or its first two folders. */
const areaOf = (path: string) => {
  const feature = featureOf(path);
  return feature !== null ? `features/${feature}` : path.split('/').slice(0, -1).slice(0, 2).join('/');
};

/** The strongly connected components of a graph with more than one node, each sorted. */
function components(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let counter = 0;
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter);
    counter++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

/**
 * The cycles of the runtime import graph (type-only imports left out) that cross areas or pass
 * through a feature's index.ts: each as the files of one strongly connected component.
 */
function crossingCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  return components(graph).filter((c) => new Set(c.map(areaOf)).size > 1 || c.some(isFeatureIndex));
}

/**
 * The loops between features (issue 32 item 2: `assets → editors → widgets → assets`): in the
 * graph of which feature imports which — any import, type-only and lazy ones too, as the Web
 * folders table counts them — one loop per strongly connected component, written
 * 'assets → editors → widgets → assets' with the file behind each step.
 */
function featureLoops(imports: ReadonlyMap<string, readonly Import[]>): string[] {
  const edges = new Map<string, Map<string, string>>(); // feature → imported feature → one importing file
  for (const [file, list] of imports) {
    const from = featureOf(file);
    if (from === null) continue;
    for (const imp of list) {
      const to = imp.target === null ? null : featureOf(imp.target);
      if (to === null || to === from) continue;
      if (!edges.has(from)) edges.set(from, new Map());
      if (!edges.get(from)!.has(to)) edges.get(from)!.set(to, file);
    }
  }
  const graph = new Map([...edges].map(([from, targets]) => [from, [...targets.keys()].sort()]));
  return components(graph).map((component) => {
    // The shortest way from the component's first feature back to it.
    const start = component[0];
    const previous = new Map<string, string>();
    const queue = [start];
    while (queue.length > 0 && !previous.has(start)) {
      const v = queue.shift()!;
      for (const w of graph.get(v) ?? []) {
        if (!component.includes(w) || previous.has(w)) continue;
        previous.set(w, v);
        queue.push(w);
      }
    }
    const loop = [start];
    for (let v = previous.get(start)!; v !== start; v = previous.get(v)!) loop.unshift(v);
    loop.unshift(start);
    const steps = loop.slice(1).map((to, i) => `${edges.get(loop[i])!.get(to)} imports features/${to}`);
    return `${loop.join(' → ')} (${steps.join('; ')})`;
  });
}

describe('the import graph', () => {
  const files = new Set(sources.keys());
  const imports = new Map([...sources].map(([file, text]) => [file, importsOf(file, text, files)]));

  it('reads the sources and resolves their imports', () => {
    expect(files.has('features/widgets/index.ts')).toBe(true);
    expect(files.has('core/usePortalParams.ts')).toBe(true);
    expect([...files].some((f) => f.endsWith('.test.ts') || f.endsWith('.test.tsx'))).toBe(false);
    const designer = imports.get('features/designer/PropertyFields.tsx') ?? [];
    expect(designer.map((i) => i.target)).toContain('features/widgets/index.ts');
    const manifest = imports.get('features/index.ts') ?? [];
    expect(manifest.map((i) => i.target)).toContain('features/admin/register.ts');
  });

  it('enters a feature only through its index.ts and imports nothing of a floor above', () => {
    const problems = [...imports].flatMap(([file, list]) => list.flatMap((imp) => violations(file, imp)));
    expect(problems, problems.join('\n')).toEqual([]);
  });

  it('has no import cycle between features or through an index.ts', () => {
    const graph = new Map(
      [...imports].map(([file, list]) => [
        file,
        list.filter((i) => !i.typeOnly && i.target !== null).map((i) => i.target!),
      ]),
    );
    const cycles = crossingCycles(graph);
    expect(cycles, cycles.map((c) => `import cycle among: ${c.join(', ')}`).join('\n')).toEqual([]);
  });

  it('has no loop between features', () => {
    const loops = featureLoops(imports);
    expect(loops, loops.map((loop) => `a loop between features: ${loop}`).join('\n')).toEqual([]);
  });

  it('imports between folders only what docs/architecture.md "Web folders" names, and all of it', () => {
    const rows = webFolderRows(architectureDoc);
    expect(rows.map((r) => r.folders).flat()).toContain('features/widgets');
    const problems = folderTableProblems(rows, imports);
    expect(problems, problems.join('\n')).toEqual([]);
  });

  it('keeps every allow-list entry in use', () => {
    const unused = ALLOWED.filter(
      (a) =>
        ![...imports].some(
          ([file, list]) => matches(a.from, file) && list.some((i) => i.target && matches(a.to, i.target)),
        ),
    );
    expect(unused).toEqual([]);
  });
});

describe('the import rules', () => {
  const files = new Set([
    'features/widgets/index.ts',
    'features/widgets/links/LinkManagerDialog.tsx',
    'features/designer/PropertyFields.tsx',
    'features/index.ts',
    'features/admin/register.ts',
    'app/selection/PortalChainHost.tsx',
    'app/shell/Header.tsx',
    'core/toastService.ts',
    'core/usePortalParams.ts',
    'ui/useAction.ts',
  ]);
  const check = (from: string, source: string) =>
    importsOf(from, source, files).flatMap((imp) => violations(from, imp));

  it('names the file and the import of a deep import from another feature or from app/', () => {
    expect(
      check('features/designer/PropertyFields.tsx', "import { X } from '../widgets/links/LinkManagerDialog';"),
    ).toEqual([
      "features/designer/PropertyFields.tsx imports '../widgets/links/LinkManagerDialog' (features/widgets/links/LinkManagerDialog.tsx): outside features/widgets use its index.ts ('features/widgets')",
    ]);
    expect(
      check('app/shell/Header.tsx', "const M = lazy(() => import('../../features/widgets/links/LinkManagerDialog'));"),
    ).toHaveLength(1);
    expect(
      check(
        'app/shell/Header.tsx',
        "import type {\n  A,\n  B,\n} from '../../features/widgets/links/LinkManagerDialog';",
      ),
    ).toHaveLength(1);
  });

  it('accepts the index, relative imports inside a feature, the allow-list and commented-out imports', () => {
    expect(check('features/designer/PropertyFields.tsx', "import { X } from '../widgets';")).toEqual([]);
    expect(check('features/widgets/index.ts', "export { X } from './links/LinkManagerDialog';")).toEqual([]);
    expect(check('features/index.ts', "import './admin/register';")).toEqual([]);
    expect(
      check('app/shell/Header.tsx', "// import { X } from '../../features/widgets/links/LinkManagerDialog';"),
    ).toEqual([]);
  });

  it("rejects a feature's import of its own index.ts", () => {
    expect(check('features/widgets/links/LinkManagerDialog.tsx', "import { Y } from '..';")).toHaveLength(1);
  });

  it('keeps the floors: nothing below imports what is above it', () => {
    expect(check('ui/useAction.ts', "import { H } from '../app/shell/Header';")).toEqual([
      "ui/useAction.ts imports '../app/shell/Header' (app/shell/Header.tsx): app/ is a floor above ui/",
    ]);
    expect(
      check('features/designer/PropertyFields.tsx', "import { H } from '../../app/selection/PortalChainHost';"),
    ).toEqual([
      "features/designer/PropertyFields.tsx imports '../../app/selection/PortalChainHost' (app/selection/PortalChainHost.tsx): app/ is a floor above features/",
    ]);
    expect(
      check('features/designer/PropertyFields.tsx', "import type { S } from '../../app/shell/Header';"),
    ).toHaveLength(1);
    expect(check('app/shell/Header.tsx', "import { H } from '../selection/PortalChainHost';")).toEqual([]);
    expect(check('app/shell/Header.tsx', "import { S } from '../../core/usePortalParams';")).toEqual([]);
    expect(check('core/toastService.ts', "import { useAction } from '../ui/useAction';")).toHaveLength(1);
    expect(check('core/toastService.ts', "import type { W } from '../features/widgets';")).toHaveLength(1);
    expect(check('ui/useAction.ts', "import { toasts } from '../core/toastService';")).toEqual([]);
    expect(check('features/designer/PropertyFields.tsx', "import { toasts } from '../../core/toastService';")).toEqual(
      [],
    );
  });

  it('reads the Web folders table and names what it gets wrong', () => {
    const doc = [
      '## Front end',
      '### Web folders',
      '',
      '| Folder | Owns | May import (features, through their `index.ts`) |',
      '| --- | --- | --- |',
      '| `app/` | the shell (`paths.ts`) | `widgets` |',
      '| `features/designer`, `features/widgets` | the designer; the widgets | `assets` (lazily) |',
      '| `features/assets` | files | — |',
      '',
      '## Next',
      '| `features/other` | not in the section | `x` |',
    ].join('\n');
    const rows = webFolderRows(doc);
    expect(rows).toEqual([
      { folders: ['app'], mayImport: ['widgets'] },
      { folders: ['features/designer', 'features/widgets'], mayImport: ['assets'] },
      { folders: ['features/assets'], mayImport: [] },
    ]);
    const graph = (edges: Record<string, string[]>) =>
      new Map(
        Object.entries(edges).map(([file, targets]) => [
          file,
          targets.map((target) => ({ specifier: target, target, typeOnly: false })),
        ]),
      );
    const imports = graph({
      'app/shell/Header.tsx': ['features/widgets/index.ts', 'features/designer/index.ts'],
      'features/designer/Designer.tsx': ['features/widgets/index.ts', 'api/pages.ts'],
      'features/widgets/index.ts': ['features/widgets/Picker.tsx'],
      'features/widgets/Picker.tsx': ['features/assets/index.ts'],
      'features/assets/index.ts': [],
      'ui/Tree.tsx': [],
      'api/pages.ts': [],
    });
    expect(folderTableProblems(rows, imports)).toEqual([
      'ui/ has no row',
      'api/ has no row',
      'app/shell/Header.tsx imports features/designer, which the row of app does not name',
      'features/designer/Designer.tsx imports features/widgets, which the row of features/designer does not name',
    ]);
    expect(folderTableProblems(rows, graph({ 'app/A.ts': [], 'features/widgets/index.ts': [] }))).toEqual([
      'the row of features/designer names no folder of src',
      'the row of features/designer, features/widgets names assets, which is no feature',
      'the row of features/assets names no folder of src',
      'the row of app names widgets, which none of them imports',
      'the row of features/designer, features/widgets names assets, which none of them imports',
    ]);
  });

  it('finds a cycle between two feature barrels', () => {
    const graph = new Map([
      ['features/a/index.ts', ['features/a/A.ts']],
      ['features/a/A.ts', ['features/b/index.ts']],
      ['features/b/index.ts', ['features/b/B.ts']],
      ['features/b/B.ts', ['features/a/index.ts']],
      ['features/c/One.ts', ['features/c/Two.ts']],
      ['features/c/Two.ts', ['features/c/One.ts']],
    ]);
    expect(crossingCycles(graph)).toEqual([
      ['features/a/A.ts', 'features/a/index.ts', 'features/b/B.ts', 'features/b/index.ts'],
    ]);
  });

  it('finds a loop between features, type-only and lazy imports included, with a file behind each step', () => {
    const imports = (edges: Record<string, [string, boolean][]>) =>
      new Map(
        Object.entries(edges).map(([file, targets]) => [
          file,
          targets.map(([target, typeOnly]) => ({ specifier: target, target, typeOnly })),
        ]),
      );
    expect(
      featureLoops(
        imports({
          'features/assets/View.tsx': [['features/editors/index.ts', false]],
          'features/editors/Link.tsx': [['features/widgets/index.ts', false]],
          'features/widgets/Picker.tsx': [['features/assets/index.ts', true]],
          'features/widgets/index.ts': [['features/widgets/Picker.tsx', false]],
          'features/portal/Menu.tsx': [
            ['features/conflicts/index.ts', false],
            ['core/paths.ts', false],
          ],
          'features/conflicts/Screen.tsx': [['features/portal/index.ts', false]],
          'features/designer/Designer.tsx': [['features/widgets/index.ts', false]],
          'app/App.tsx': [['features/portal/index.ts', false]],
        }),
      ),
    ).toEqual([
      'assets → editors → widgets → assets (features/assets/View.tsx imports features/editors; features/editors/Link.tsx imports features/widgets; features/widgets/Picker.tsx imports features/assets)',
      'conflicts → portal → conflicts (features/conflicts/Screen.tsx imports features/portal; features/portal/Menu.tsx imports features/conflicts)',
    ]);
    expect(
      featureLoops(
        imports({ 'features/designer/D.tsx': [['features/widgets/index.ts', false]], 'features/widgets/W.tsx': [] }),
      ),
    ).toEqual([]);
  });
});
