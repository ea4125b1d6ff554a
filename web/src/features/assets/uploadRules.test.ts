import { describe, expect, it } from 'vitest';
import { fakeFile, sizeLimits } from './fixtures';
import { ASSET_MESSAGES } from './messages';
import { addFiles, clampProgress, hasAllowedName, typeLimitBytes, uploadErrorMessage } from './uploadRules';

const none = new Set<string>();

describe('upload rules (spec 2 §5)', () => {
  it('allows letters, digits, space and [ ] - _ ) & $ @ ( ^ { } ~ . only', () => {
    expect(hasAllowedName('My file [1] (a)_b-c&$@^{}~.png')).toBe(true);
    expect(hasAllowedName('naïve.png')).toBe(true); // letters of any script, as the server (one rule: lib/rules.generated.ts)
    expect(hasAllowedName('a#b.png')).toBe(false);
    expect(hasAllowedName('a%b.png')).toBe(false);
  });

  it('refuses special characters with the spec warning', () => {
    const added = addFiles([], [fakeFile('a#b.png'), fakeFile('ok.png')], none, sizeLimits);
    expect(added.items.map((i) => i.name)).toEqual(['ok.png']);
    expect(added.warnings).toEqual([ASSET_MESSAGES.specialCharacters]);
    expect(ASSET_MESSAGES.specialCharacters).toBe(
      'Warning! Some of the selected files can not be uploaded because it contains special characters.',
    );
  });

  it('flags files that already exist and warns', () => {
    const added = addFiles([], [fakeFile('logo.png')], new Set(['logo.png']), sizeLimits);
    expect(added.items[0]).toMatchObject({ name: 'logo.png', exists: true, status: 'QUEUED', progress: 0 });
    expect(added.warnings).toEqual([
      'Warning! Some of the selected files already exist in the current directory and may be overridden.',
    ]);
  });

  it('does not add a duplicate (same name, size and type) twice', () => {
    const first = addFiles([], [fakeFile('a.png', 10)], none, sizeLimits);
    const second = addFiles(first.items, [fakeFile('a.png', 10), fakeFile('a.png', 11)], none, sizeLimits);
    expect(second.items.map((i) => i.size)).toEqual([10, 11]);
  });

  it('refuses a file over its type limit, with the size', () => {
    expect(typeLimitBytes(sizeLimits, 'x.PNG')).toBe(1024 * 1024);
    expect(typeLimitBytes(sizeLimits, 'x.json')).toBe(5 * 1024 * 1024);
    const atLimit = addFiles([], [fakeFile('ok.png', 1024 * 1024)], none, sizeLimits);
    expect(atLimit.errors).toEqual([]);
    const added = addFiles([], [fakeFile('big.png', 1024 * 1024 + 1)], none, sizeLimits);
    expect(added.items).toEqual([]);
    expect(added.errors).toEqual(["Cannot add 'big.png' as it exceeds the allowed file size of 1.00 MB for it's type"]);
  });

  it('refuses a file that takes the selection over 399mb', () => {
    const mb = 1024 * 1024;
    const added = addFiles(
      [],
      [
        fakeFile('a.mp4', 200 * mb, 'video/mp4'),
        fakeFile('b.mp4', 150 * mb, 'video/mp4'),
        fakeFile('c.mp4', 60 * mb, 'video/mp4'),
      ],
      none,
      sizeLimits,
    );
    expect(added.items.map((i) => i.name)).toEqual(['a.mp4', 'b.mp4']);
    expect(added.errors).toEqual(["Cannot add 'c.mp4' as it exceeds the allowed max upload amount size of 399mb"]);
  });

  it('refuses an extension that is not allowed', () => {
    const added = addFiles([], [fakeFile('tool.exe')], none, sizeLimits);
    expect(added.items).toEqual([]);
    expect(added.errors).toEqual([ASSET_MESSAGES.typeNotAllowed('tool.exe')]);
  });

  it('clamps progress between 0 and 100', () => {
    expect(clampProgress(50, 100)).toBe(50);
    expect(clampProgress(150, 100)).toBe(100);
    expect(clampProgress(-5, 100)).toBe(0);
    expect(clampProgress(1, 0)).toBe(0);
  });

  it('shows the first rule error of CONTENT_VALIDATION_FAILED, else the message', () => {
    const invalid = JSON.stringify({
      errorCodeDesc: 'CONTENT_VALIDATION_FAILED',
      errorMessage: 'Invalid',
      data: { ruleErrors: [{ message: 'title is required' }, { message: 'second' }] },
    });
    expect(uploadErrorMessage(invalid)).toBe('title is required');
    expect(uploadErrorMessage(JSON.stringify({ errorMessage: 'Extension not allowed' }))).toBe('Extension not allowed');
    expect(uploadErrorMessage('plain text')).toBe('plain text');
  });
});
