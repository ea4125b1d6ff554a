import { describe, expect, it } from 'vitest';
import type { TranslationData } from '../../api/translations';
import {
  addKeyToDraft,
  changedKeys,
  computeKeyStatus,
  deleteKeyFromDraft,
  hasUnsavedChanges,
  keyLabel,
  reapplyChanges,
  setDraftValue,
  statusIcon,
  unionKeys,
  unsavedChanges,
  valueChangeId,
} from './model';

const data: TranslationData = {
  en_GB: { TXT_A: 'A', TXT_B: '', IMG_C: '/c.png', TXT_D: 'D', TXT_E: 'E' },
  fr_FR: { TXT_A: 'Un', TXT_B: 'Bé', IMG_C: '/c.png', TXT_D: 'D', TXT_F: 'F' },
};
const LANGS = ['en_GB', 'fr_FR'];
const status = (lang: string, key: string) => computeKeyStatus(data, 'en_GB', LANGS, lang, key);

describe('key status (contract rules)', () => {
  it('for the default language', () => {
    expect(status('en_GB', 'TXT_A')).toEqual({ status: 'COMPLETED', reason: '' });
    expect(status('en_GB', 'TXT_B')).toEqual({ status: 'INCOMPLETE', reason: 'DEFAULT_VALUE_MISSING' });
    expect(status('en_GB', 'IMG_C')).toEqual({ status: 'COMPLETED', reason: '' });
    expect(status('en_GB', 'TXT_D')).toEqual({ status: 'INCOMPLETE', reason: 'REQUIRED_IN_OTHERS' });
    expect(status('en_GB', 'TXT_E')).toEqual({ status: 'INCOMPLETE', reason: 'KEY_MISSING_IN_OTHERS' });
    expect(status('en_GB', 'TXT_F')).toEqual({ status: 'MISSING', reason: 'KEY_MISSING_IN_DEFAULT' });
  });

  it('for another language', () => {
    expect(status('fr_FR', 'TXT_A')).toEqual({ status: 'COMPLETED', reason: '' });
    expect(status('fr_FR', 'TXT_B')).toEqual({ status: 'INCOMPLETE', reason: 'DEFAULT_VALUE_MISSING' });
    expect(status('fr_FR', 'IMG_C')).toEqual({ status: 'COMPLETED', reason: '' });
    expect(status('fr_FR', 'TXT_D')).toEqual({ status: 'INCOMPLETE', reason: 'REQUIRED' });
    expect(status('fr_FR', 'TXT_E')).toEqual({ status: 'MISSING', reason: 'KEY_MISSING' });
    expect(status('fr_FR', 'TXT_F')).toEqual({ status: 'MISSING', reason: 'KEY_MISSING_IN_DEFAULT' });
  });

  it('picks the icons', () => {
    expect(statusIcon({ status: 'COMPLETED', reason: '' }, 'x')).toBe('check');
    expect(statusIcon({ status: 'MISSING', reason: 'KEY_MISSING' }, undefined)).toBe('question');
    expect(statusIcon({ status: 'INCOMPLETE', reason: 'REQUIRED' }, '')).toBe('cross');
    expect(statusIcon({ status: 'INCOMPLETE', reason: 'REQUIRED' }, 'D')).toBe('exclamation');
    expect(statusIcon({ status: 'INCOMPLETE', reason: 'DEFAULT_VALUE_MISSING' }, 'x')).toBe('exclamation');
    expect(statusIcon({ status: 'INCOMPLETE', reason: 'KEY_MISSING_IN_OTHERS' }, 'x')).toBe('cross');
  });
});

describe('unsaved changes', () => {
  it('split into key and value changes; adding or deleting a key marks both', () => {
    expect(hasUnsavedChanges(unsavedChanges(data, data))).toBe(false);
    const edited = setDraftValue(data, 'fr_FR', 'TXT_A', 'Une');
    let changes = unsavedChanges(data, edited);
    expect([...changes.keyChanges]).toEqual([]);
    expect([...changes.valueChanges]).toEqual([valueChangeId('fr_FR', 'TXT_A')]);
    const added = addKeyToDraft(data, LANGS, 'TXT_NEW');
    changes = unsavedChanges(data, added);
    expect([...changes.keyChanges]).toEqual(['TXT_NEW']);
    expect(changes.valueChanges.has(valueChangeId('en_GB', 'TXT_NEW'))).toBe(true);
    const deleted = deleteKeyFromDraft(data, 'TXT_A');
    changes = unsavedChanges(data, deleted);
    expect([...changes.keyChanges]).toEqual(['TXT_A']);
    expect([...changedKeys(changes)]).toEqual(['TXT_A']);
  });

  it('a plain text value equal but for the trailing newline is not a change', () => {
    expect(hasUnsavedChanges(unsavedChanges(data, setDraftValue(data, 'en_GB', 'TXT_A', 'A\n')))).toBe(false);
  });

  it('keeps the key list while only values change', () => {
    const keys = unionKeys(data);
    expect(unionKeys(setDraftValue(data, 'en_GB', 'TXT_A', 'x'))).toBe(keys);
    expect(unionKeys(addKeyToDraft(data, LANGS, 'TXT_Z'))).toContain('TXT_Z');
  });

  it('reapplies the edits on fresh files', () => {
    const fresh = { ...data, en_GB: { ...data.en_GB, TXT_OTHER: 'new' } };
    const draft = deleteKeyFromDraft(
      addKeyToDraft(setDraftValue(data, 'fr_FR', 'TXT_A', 'Une'), LANGS, 'TXT_N'),
      'TXT_D',
    );
    const next = reapplyChanges(fresh, data, draft);
    expect(next.en_GB.TXT_OTHER).toBe('new');
    expect(next.fr_FR.TXT_A).toBe('Une');
    expect(next.fr_FR.TXT_N).toBe('');
    expect('TXT_D' in next.en_GB).toBe(false);
  });

  it('cuts labels at 28 characters, lower case', () => {
    expect(keyLabel('TXT_SHORT')).toBe('txt_short');
    expect(keyLabel('TXT_123456789012345678901234567890')).toBe('txt_123456789012345678901234…');
  });
});

describe('nested keys', () => {
  it('are texts: none keeps the default value as IMG_ and LNK_ keys may', () => {
    const nested: TranslationData = {
      en: { 'img.logo': 'a.png', IMG_X: 'x.png' },
      fr: { 'img.logo': 'a.png', IMG_X: 'x.png' },
    };
    expect(computeKeyStatus(nested, 'en', ['en', 'fr'], 'fr', 'IMG_X', 'nested')).toEqual({
      status: 'INCOMPLETE',
      reason: 'REQUIRED',
    });
    expect(computeKeyStatus(nested, 'en', ['en', 'fr'], 'fr', 'IMG_X', 'flat')).toEqual({
      status: 'COMPLETED',
      reason: '',
    });
    expect(computeKeyStatus(nested, 'en', ['en', 'fr'], 'fr', 'img.logo')).toEqual({
      status: 'INCOMPLETE',
      reason: 'REQUIRED',
    });
  });

  it('are labelled as written', () => {
    expect(keyLabel('nav.Home')).toBe('nav.Home');
    expect(keyLabel('TXT_HELLO')).toBe('txt_hello');
  });
});
