import { describe, expect, it } from 'vitest';
import type { Finding } from '../../api/readiness';
import {
  errorCounts,
  folderErrorCount,
  formFieldPointers,
  lineAnnotations,
  placeFindings,
  pointerOf,
  pointerSegments,
  worstSeverity,
} from './fieldFindings';

const finding = (over: Partial<Finding>): Finding => ({
  id: over.id ?? Math.random().toString(36),
  rule: 'content.schema',
  severity: 'error',
  path: 'content/menu.json',
  message: 'wrong',
  ...over,
});

describe('field findings', () => {
  it('reads and writes JSON pointers, escapes included', () => {
    expect(pointerSegments('/items/0/a~1b~0c')).toEqual(['items', '0', 'a/b~c']);
    expect(pointerSegments('')).toEqual([]);
    expect(pointerSegments('/')).toEqual([]);
    expect(pointerSegments('#/items/1')).toEqual(['items', '1']);
    expect(pointerOf(['items', 0, 'a/b~c'])).toBe('/items/0/a~1b~0c');
    expect(pointerOf([])).toBe('');
  });

  it('places a finding at its field, or the nearest field above it, else in the rest', () => {
    const exact = finding({ pointer: '/items/0/title' });
    const deep = finding({ pointer: '/items/0/link/href' });
    const root = finding({ pointer: '' });
    const none = finding({ pointer: '/nowhere' });
    const { at, rest } = placeFindings(
      [exact, deep, root, none],
      ['/items', '/items/0', '/items/0/title', '/items/0/link'],
    );
    expect(at.get('/items/0/title')).toEqual([exact]);
    expect(at.get('/items/0/link')).toEqual([deep]);
    expect(rest).toEqual([root, none]);
  });

  it("lists a schema form's fields: properties, array items, $refs and data outside the schema", () => {
    const schema = {
      definitions: { link: { type: 'object', properties: { href: { type: 'string' } } } },
      type: 'object',
      properties: {
        title: { type: 'string' },
        items: { type: 'array', items: { $ref: '#/definitions/link' } },
      },
    };
    const fields = formFieldPointers(schema, { title: 'x', items: [{ href: 'a' }, {}], extra: 1 });
    expect([...fields].sort()).toEqual(
      ['/extra', '/items', '/items/0', '/items/0/href', '/items/1', '/items/1/href', '/title'].sort(),
    );
  });

  it('turns lines into Ace annotations and counts errors by file and folder', () => {
    const a = finding({ line: 3, message: 'missing alt', severity: 'warning' });
    expect(lineAnnotations([a, finding({})])).toEqual([{ row: 2, column: 0, text: 'missing alt', type: 'warning' }]);
    expect(worstSeverity([a, finding({ severity: 'info' })])).toBe('warning');
    const counts = errorCounts(
      new Map([
        ['images/a.json', [finding({}), finding({}), a]],
        ['images/deep/b.json', [finding({})]],
        ['index.html', [a]],
      ]),
    );
    expect([...counts]).toEqual([
      ['images/a.json', 2],
      ['images/deep/b.json', 1],
    ]);
    expect(folderErrorCount(counts, '/images')).toBe(3);
    expect(folderErrorCount(counts, '/images/deep')).toBe(1);
    expect(folderErrorCount(counts, '/im')).toBe(0);
    expect(folderErrorCount(counts, '/')).toBe(3);
  });
});
