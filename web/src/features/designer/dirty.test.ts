import { describe, expect, it } from 'vitest';
import { applyBatchResult, batchItems, dirtyKey, failAll, isDirty, markDirty, type DirtyCache } from './dirty';

const hero = { type: 'hero', data: { title: 'TXT_A' } };
const cards = { type: 'card-grid', data: { columns: '3' } };

describe('dirty cache', () => {
  it('keeps the latest edit with the version the edit started from', () => {
    let cache: DirtyCache = {};
    expect(isDirty(cache)).toBe(false);
    cache = markDirty(cache, 'WIDGET', 'home-hero', hero, 'v1');
    cache = markDirty(cache, 'WIDGET', 'home-hero', { ...hero, data: { title: 'TXT_B' } }, 'v9');
    expect(cache[dirtyKey('WIDGET', 'home-hero')]).toEqual({
      type: 'WIDGET',
      id: 'home-hero',
      object: { type: 'hero', data: { title: 'TXT_B' } },
      version: 'v1',
      error: null,
    });
    expect(isDirty(cache)).toBe(true);
  });

  it('builds one batch item per dirty object', () => {
    let cache = markDirty({}, 'WIDGET', 'home-hero', hero, 'v1');
    cache = markDirty(cache, 'PAGE', 'home', '<article></article>', 'p1');
    expect(batchItems(cache)).toEqual([
      { file: 'home-hero', type: 'widget', data: hero, version: 'v1' },
      { file: 'home', type: 'page', data: '<article></article>', version: 'p1' },
    ]);
  });

  it('removes the saved items and keeps the errored ones with their error', () => {
    let cache = markDirty({}, 'WIDGET', 'home-hero', hero, 'v1');
    cache = markDirty(cache, 'WIDGET', 'home-cards', cards, 'c1');
    const applied = applyBatchResult(cache, [
      { file: 'home-hero', path: 'widgets/database/home-hero.json', version: 'v2' },
      {
        file: 'home-cards',
        error: {
          errorCode: 'FILE_CHANGED',
          errorTitle: 'Could not save design surface changes.',
          errorMessage: 'The file changed',
          httpStatus: 409,
        },
      },
    ]);
    expect(applied.saved).toEqual([{ type: 'WIDGET', id: 'home-hero', version: 'v2' }]);
    expect(Object.keys(applied.cache)).toEqual([dirtyKey('WIDGET', 'home-cards')]);
    expect(applied.cache[dirtyKey('WIDGET', 'home-cards')].error).toEqual({
      errorCode: 'FILE_CHANGED',
      errorTitle: 'Could not save design surface changes.',
      errorMessage: 'The file changed',
      httpStatus: 409,
    });
    expect(applied.failed.map((f) => f.id)).toEqual(['home-cards']);
  });

  it('keeps an object edited again while the save ran, with the new version', () => {
    const sent = markDirty({}, 'WIDGET', 'home-hero', hero, 'v1');
    const current = markDirty(sent, 'WIDGET', 'home-hero', { ...hero, data: { title: 'TXT_C' } }, 'v1');
    const applied = applyBatchResult(sent, [{ file: 'home-hero', version: 'v2' }], current);
    expect(applied.cache[dirtyKey('WIDGET', 'home-hero')]).toMatchObject({
      version: 'v2',
      error: null,
      object: { data: { title: 'TXT_C' } },
    });
  });

  it('an item without an answer stays dirty; a failed call marks every item', () => {
    const cache = markDirty({}, 'WIDGET', 'home-hero', hero, 'v1');
    expect(applyBatchResult(cache, []).cache[dirtyKey('WIDGET', 'home-hero')].error).not.toBeNull();
    const failed = failAll(cache, { errorMessage: 'Server down' });
    expect(failed[dirtyKey('WIDGET', 'home-hero')].error?.errorMessage).toBe('Server down');
  });
});
