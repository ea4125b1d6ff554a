/**
 * Runs the upload dialog's files, at most MAX_CONCURRENT_UPLOADS at a time, one request per
 * file so each has its own progress (clamped 0–100), status, retry and cancel (spec 2 §4, §9).
 * Plain TypeScript (no React) so the concurrency is tested with a fake sender.
 */
import { UPLOAD_ABORTED, type UploadHandle, type UploadProgress } from '../../api/assets';
import { toApiError } from '../../api/errors';
import { ASSET_MESSAGES, MAX_CONCURRENT_UPLOADS } from './messages';
import { clampProgress, uploadErrorMessage, type UploadItem } from './uploadRules';

export type SendFile = (file: File, onProgress: (progress: UploadProgress) => void) => UploadHandle;

export interface UploadQueueEvents {
  onChange: (items: UploadItem[]) => void;
  onFileDone?: (item: UploadItem) => void;
  /** Every started file has finished (uploaded, errored or cancelled). */
  onAllDone?: (items: UploadItem[]) => void;
}

const isAbort = (error: unknown) => error instanceof DOMException && error.name === UPLOAD_ABORTED;

/** The message of a failed upload: 413 → 'file size exceeded', else the server's (rule error first). */
export function failureMessage(error: unknown): string {
  const apiError = toApiError(error);
  if (apiError.httpStatus === 413) return ASSET_MESSAGES.fileSizeExceeded;
  return uploadErrorMessage({
    errorCodeDesc: apiError.errorCodeDesc ?? undefined,
    errorMessage: apiError.errorMessage,
    data: apiError.data,
  });
}

export class UploadQueue {
  private items: UploadItem[] = [];
  private readonly running = new Map<string, () => void>();
  /** Files waiting for a free slot, in order. */
  private waiting: string[] = [];

  constructor(
    private readonly send: SendFile,
    private readonly events: UploadQueueEvents,
    private readonly concurrency = MAX_CONCURRENT_UPLOADS,
  ) {}

  get list(): readonly UploadItem[] {
    return this.items;
  }

  /** True while a file uploads or waits for a slot. */
  get busy(): boolean {
    return this.running.size > 0 || this.waiting.length > 0;
  }

  /** Replaces the list (adding and removing files before an upload). */
  setItems(items: UploadItem[]): void {
    this.items = items;
    this.emit();
  }

  /** Uploads every file not uploaded yet. */
  start(): void {
    for (const item of this.items) {
      if (item.status === 'QUEUED' && !this.waiting.includes(item.id) && !this.running.has(item.id))
        this.waiting.push(item.id);
    }
    this.pump();
  }

  /** Uploads a failed or cancelled file again. */
  retry(id: string): void {
    this.update(id, { status: 'QUEUED', progress: 0, error: undefined });
    this.start();
  }

  /** Cancels everything unfinished; answers whether anything was. */
  cancelAll(): boolean {
    const unfinished = this.busy;
    for (const id of this.waiting) this.update(id, { status: 'CANCELLED' }, false);
    this.waiting = [];
    for (const abort of [...this.running.values()]) abort();
    this.emit();
    return unfinished;
  }

  private pump(): void {
    while (this.running.size < this.concurrency) {
      const next = this.waiting.findIndex((id) => !this.schemaPending(id));
      if (next < 0) break;
      const [id] = this.waiting.splice(next, 1);
      const item = this.items.find((i) => i.id === id);
      if (item) this.run(item);
    }
    this.emit();
  }

  /**
   * A JSON file uploaded with its schema ('x.json' and 'x.json.schema') waits until the schema
   * is stored: the server checks the file against the schema in the workspace, so it is the
   * new one, not whichever request finished first (issue 22).
   */
  private schemaPending(id: string): boolean {
    const item = this.items.find((i) => i.id === id);
    if (!item || !item.name.toLowerCase().endsWith('.json')) return false;
    const schema = this.items.find((i) => i.name === `${item.name}.schema`);
    return !!schema && (this.waiting.includes(schema.id) || this.running.has(schema.id));
  }

  private run(item: UploadItem): void {
    this.update(item.id, { status: 'UPLOADING', progress: 0 }, false);
    const handle = this.send(item.file, ({ loaded, total }) =>
      this.update(item.id, { progress: clampProgress(loaded, total) }),
    );
    this.running.set(item.id, handle.abort);
    handle.result.then(
      (result) => {
        const failed = result.errors.find((e) => e.filename === item.name);
        this.finish(
          item.id,
          failed
            ? { status: 'ERRORED', error: uploadErrorMessage(failed.error) }
            : { status: 'UPLOADED', progress: 100 },
        );
      },
      (error: unknown) =>
        this.finish(
          item.id,
          isAbort(error) ? { status: 'CANCELLED' } : { status: 'ERRORED', error: failureMessage(error) },
        ),
    );
  }

  private finish(id: string, patch: Partial<UploadItem>): void {
    this.running.delete(id);
    this.update(id, patch, false);
    const item = this.items.find((i) => i.id === id);
    if (item) this.events.onFileDone?.(item);
    this.pump();
    if (!this.busy) this.events.onAllDone?.(this.items);
  }

  private update(id: string, patch: Partial<UploadItem>, emit = true): void {
    this.items = this.items.map((item) => (item.id === id ? { ...item, ...patch } : item));
    if (emit) this.emit();
  }

  private emit(): void {
    this.events.onChange(this.items);
  }
}
