import { describe, expect, it } from 'vitest';
import { ALL_TYPES_PROBE } from './fixtures';
import {
  buildWidgetForm,
  EDITOR_TYPES,
  linkHref,
  linkValue,
  moveItem,
  newItem,
  valuesFor,
  withProperty,
} from './properties';

describe('buildWidgetForm', () => {
  it('builds one field per property by its editor type', () => {
    const form = buildWidgetForm(ALL_TYPES_PROBE);
    expect(form.name).toBe('Everything');
    expect(form.fields.map((f) => [f.name, f.editor])).toEqual([
      ['text', 'TextInput'],
      ['rich', 'RichTextInput'],
      ['flag', 'CheckBox'],
      ['colour', 'ColorInput'],
      ['choice', 'DropDown'],
      ['asset', 'AssetManager'],
      ['link', 'LinkManager'],
      ['page', 'PageSelector'],
      ['key', 'TranslationSelector'],
      ['json', 'JsonEditor'],
      ['items', 'SubEditor'],
      ['odd', 'TextInput'],
    ]);
    const types = new Set(form.fields.map((f) => f.editor));
    for (const t of EDITOR_TYPES) expect(types.has(t)).toBe(true);
    expect(form.fields[4].options).toEqual([
      ['a', 'a'],
      ['b', 'Bee'],
    ]);
    expect(form.fields[10].properties.map((f) => f.name)).toEqual(['label', 'on']);
    expect(form.fields[11]).toMatchObject({ label: 'odd', unknownEditor: 'Sparkles', default: '' });
  });

  it('reads every probe of the crew starter', () => {
    const probes = import.meta.glob<{ properties: unknown[] }>(
      '../../../../templates/crew/widgets/modules/*/config.probe.json',
      {
        eager: true,
        import: 'default',
      },
    );
    expect(Object.keys(probes).length).toBeGreaterThanOrEqual(6);
    for (const probe of Object.values(probes)) {
      const form = buildWidgetForm(probe);
      expect(form.fields.length).toBe(probe.properties.length);
      expect(form.fields.every((f) => !f.unknownEditor)).toBe(true);
    }
  });

  it('tolerates a probe that is not one', () => {
    expect(buildWidgetForm(null)).toEqual({ name: '', fields: [] });
    expect(buildWidgetForm({ properties: 'x' }).fields).toEqual([]);
  });
});

describe('values per media query', () => {
  const instance = {
    type: 'hero',
    data: { align: 'start', title: 'T' },
    mediaQueries: { '(max-width: 600px)': { align: 'center' } },
  };
  it('shows data with the query overrides over it', () => {
    expect(valuesFor(instance, 'Full Size')).toEqual({ align: 'start', title: 'T' });
    expect(valuesFor(instance, '(max-width: 600px)')).toEqual({ align: 'center', title: 'T' });
  });
  it('writes Full Size changes to data, others to the query overrides', () => {
    expect(withProperty(instance, 'Full Size', 'title', 'U')).toEqual({
      ...instance,
      data: { align: 'start', title: 'U' },
    });
    expect(withProperty(instance, '(max-width: 600px)', 'title', 'U').mediaQueries).toEqual({
      '(max-width: 600px)': { align: 'center', title: 'U' },
    });
    expect(withProperty({ type: 'x', data: {} }, '(max-width: 400px)', 'a', 1).mediaQueries).toEqual({
      '(max-width: 400px)': { a: 1 },
    });
  });
});

describe('SubEditor helpers', () => {
  it('adds items at their defaults and moves them', () => {
    const form = buildWidgetForm(ALL_TYPES_PROBE);
    expect(newItem(form.fields[10].properties)).toEqual({ label: 'New', on: false });
    expect(moveItem(['a', 'b', 'c'], 0, 2)).toEqual(['b', 'c', 'a']);
    expect(moveItem(['a', 'b'], 0, -1)).toEqual(['a', 'b']);
  });
});

describe('LinkManager values', () => {
  const typeOf = (h: string) => (h.startsWith('#/') ? 'Internal' : 'External');
  it('reads the href of a string or a { type, value } link', () => {
    expect(linkHref('#/about')).toBe('#/about');
    expect(linkHref({ type: 'Internal', value: '#/about' })).toBe('#/about');
    expect(linkHref(null)).toBe('');
    expect(linkHref({ type: 'Internal' })).toBe('');
  });
  it('keeps the form the property had, with the type of the new href', () => {
    expect(linkValue('#/a', '#/b', typeOf)).toBe('#/b');
    expect(linkValue(undefined, 'https://x.org', typeOf)).toBe('https://x.org');
    expect(linkValue({ type: 'Internal', value: '#/a', extra: 1 }, 'https://x.org', typeOf)).toEqual({
      type: 'External',
      value: 'https://x.org',
      extra: 1,
    });
  });
});
