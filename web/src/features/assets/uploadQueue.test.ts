import { describe, expect, it } from 'vitest';
import type { UploadHandle, UploadProgress, UploadResult } from '../../api/assets';
import { ApiError } from '../../api/errors';
import { fakeFile, sizeLimits } from './fixtures';
import { UploadQueue } from './uploadQueue';
import { addFiles, type UploadItem } from './uploadRules';

interface Pending {
  name: string;
  progress: (p: UploadProgress) => void;
  resolve: (r: UploadResult) => void;
  reject: (e: unknown) => void;
  aborted: boolean;
}

function fakeSender() {
  const started: Pending[] = [];
  let active = 0;
  let maxActive = 0;
  const send = (file: File, onProgress: (p: UploadProgress) => void): UploadHandle => {
    active++;
    maxActive = Math.max(maxActive, active);
    let pending!: Pending;
    const result = new Promise<UploadResult>((resolve, reject) => {
      pending = { name: file.name, progress: onProgress, resolve, reject, aborted: false };
    }).finally(() => active--);
    started.push(pending);
    return {
      result,
      abort: () => {
        pending.aborted = true;
        pending.reject(new DOMException('cancelled', 'AbortError'));
      },
    };
  };
  return { send, started, maxActive: () => maxActive };
}

const flush = () => new Promise((r) => setTimeout(r, 0));

function queueOf(count: number) {
  const sender = fakeSender();
  let items: UploadItem[] = [];
  let allDone = 0;
  const queue = new UploadQueue(sender.send, {
    onChange: (list) => (items = list),
    onAllDone: () => allDone++,
  });
  const files = Array.from({ length: count }, (_, i) => fakeFile(`f${String(i)}.png`));
  queue.setItems(addFiles([], files, new Set(), sizeLimits).items);
  return { queue, sender, items: () => items, allDone: () => allDone };
}

describe('UploadQueue', () => {
  it('starts a JSON file after the schema uploaded with it is stored, whatever their order', async () => {
    const sender = fakeSender();
    let items: UploadItem[] = [];
    const queue = new UploadQueue(sender.send, { onChange: (list) => (items = list) });
    const files = [fakeFile('menu.json'), fakeFile('logo.png'), fakeFile('menu.json.schema')];
    queue.setItems(addFiles([], files, new Set(), sizeLimits).items);
    queue.start();
    expect(sender.started.map((p) => p.name)).toEqual(['logo.png', 'menu.json.schema']);
    expect(items.find((i) => i.name === 'menu.json')?.status).toBe('QUEUED');
    sender.started[1].resolve({ success: ['menu.json.schema'], errors: [] });
    await flush();
    expect(sender.started.map((p) => p.name)).toEqual(['logo.png', 'menu.json.schema', 'menu.json']);
  });

  it('runs at most 3 uploads at a time and starts the next as one finishes', async () => {
    const { queue, sender, items, allDone } = queueOf(5);
    queue.start();
    expect(sender.started).toHaveLength(3);
    expect(items().map((i) => i.status)).toEqual(['UPLOADING', 'UPLOADING', 'UPLOADING', 'QUEUED', 'QUEUED']);
    sender.started[0].resolve({ success: ['f0.png'], errors: [] });
    await flush();
    expect(sender.started).toHaveLength(4);
    for (const s of sender.started.slice(1)) s.resolve({ success: [s.name], errors: [] });
    await flush();
    sender.started[4].resolve({ success: ['f4.png'], errors: [] });
    await flush();
    expect(sender.maxActive()).toBe(3);
    expect(items().every((i) => i.status === 'UPLOADED' && i.progress === 100)).toBe(true);
    expect(allDone()).toBe(1);
    expect(queue.busy).toBe(false);
  });

  it('clamps progress to 0–100', () => {
    const { queue, sender, items } = queueOf(1);
    queue.start();
    sender.started[0].progress({ loaded: 50, total: 200 });
    expect(items()[0].progress).toBe(25);
    sender.started[0].progress({ loaded: 300, total: 200 });
    expect(items()[0].progress).toBe(100);
  });

  it('marks 413 as file size exceeded, a per-file error with its rule message, and retries', async () => {
    const { queue, sender, items } = queueOf(2);
    queue.start();
    sender.started[0].reject(new ApiError({ httpStatus: 413, errorMessage: 'Payload too large' }));
    sender.started[1].resolve({
      success: [],
      errors: [
        {
          filename: 'f1.png',
          error: JSON.stringify({
            errorCodeDesc: 'CONTENT_VALIDATION_FAILED',
            errorMessage: 'x',
            data: { ruleErrors: [{ message: 'Bad image' }] },
          }),
        },
      ],
    });
    await flush();
    expect(items().map((i) => [i.status, i.error])).toEqual([
      ['ERRORED', 'file size exceeded'],
      ['ERRORED', 'Bad image'],
    ]);
    queue.retry(items()[0].id);
    expect(sender.started).toHaveLength(3);
    expect(items()[0].status).toBe('UPLOADING');
  });

  it('cancels what is unfinished', async () => {
    const { queue, sender, items } = queueOf(4);
    queue.start();
    expect(queue.cancelAll()).toBe(true);
    await flush();
    expect(sender.started.every((s) => s.aborted)).toBe(true);
    expect(items().map((i) => i.status)).toEqual(['CANCELLED', 'CANCELLED', 'CANCELLED', 'CANCELLED']);
    expect(queue.cancelAll()).toBe(false);
  });
});
