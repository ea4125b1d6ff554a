import { describe, expect, it } from 'vitest';
import { asText, isHexColor, jsonText, syncedJsonText, withItemProperty, withoutItem } from './properties';

describe('property field values', () => {
  it('shows any value as text', () => {
    expect(asText('Hi')).toBe('Hi');
    expect(asText(null)).toBe('');
    expect(asText(undefined)).toBe('');
    expect(asText(3)).toBe('3');
    expect(asText(false)).toBe('false');
    expect(asText({ a: 1 })).toBe('{"a":1}');
  });

  it('tells colours the swatch can show', () => {
    expect(isHexColor('#00ff7A')).toBe(true);
    expect(isHexColor('#fff')).toBe(false);
    expect(isHexColor('red')).toBe(false);
  });

  it('keeps the JSON being typed unless the value from outside is other data', () => {
    expect(jsonText(undefined)).toBe('{}');
    expect(jsonText({ a: 1 })).toBe('{\n  "a": 1\n}');
    const typed = '{"a":   1}';
    expect(syncedJsonText(typed, { a: 1 })).toBe(typed);
    expect(syncedJsonText('{"a": 1', { a: 2 })).toBe('{"a": 1');
    expect(syncedJsonText(typed, { a: 2 })).toBe('{\n  "a": 2\n}');
    expect(syncedJsonText('{}', undefined)).toBe('{}');
  });

  it('removes a SubEditor item and changes one property of one item', () => {
    const items = [{ title: 'A' }, { title: 'B' }, { title: 'C' }];
    expect(withoutItem(items, 1)).toEqual([{ title: 'A' }, { title: 'C' }]);
    expect(withItemProperty(items, 2, 'title', 'Z')).toEqual([{ title: 'A' }, { title: 'B' }, { title: 'Z' }]);
    expect(withItemProperty(items, 0, 'link', '/x')[0]).toEqual({ title: 'A', link: '/x' });
    expect(items[0]).toEqual({ title: 'A' });
  });
});
