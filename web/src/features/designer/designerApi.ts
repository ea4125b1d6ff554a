/**
 * The designer's file reads through the asset service: widget instances (with their versions),
 * widget probes and portal.json. The page calls and the batch save are api/pages.ts's.
 */
import { assetApi } from '../../api/assets';
import type { Id } from '../../api/portal';

/** A widget instance file: {type, data, mediaQueries?}. */
export interface WidgetInstance {
  type: string;
  data: Record<string, unknown>;
  mediaQueries?: Record<string, Record<string, unknown>>;
  [extra: string]: unknown;
}

export const widgetInstancePath = (id: string) => `widgets/database/${id}.json`;
export const widgetProbePath = (type: string) => `widgets/modules/${type}/config.probe.json`;

/** A plain folder or file name (the ids and types come from the untrusted frame). */
export const isSafeName = (name: string) => /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/.test(name) && !name.includes('..');

function parseJson(data: unknown): unknown {
  if (typeof data !== 'string') return data;
  return JSON.parse(data);
}

export async function readWidgetInstance(
  d: Id,
  p: Id,
  id: string,
): Promise<{ instance: WidgetInstance; version: string }> {
  const { data, version } = await assetApi.source(d, p, widgetInstancePath(id));
  const parsed = parseJson(data) as Partial<WidgetInstance> | null;
  const instance: WidgetInstance = {
    ...(parsed ?? {}),
    type: typeof parsed?.type === 'string' ? parsed.type : '',
    data: parsed?.data && typeof parsed.data === 'object' ? (parsed.data as Record<string, unknown>) : {},
  };
  return { instance, version: version ?? '' };
}

export async function readProbe(d: Id, p: Id, type: string): Promise<unknown> {
  const { data } = await assetApi.source(d, p, widgetProbePath(type));
  return parseJson(data);
}

/** portal.json of the workspace, or null when it cannot be read. */
export async function readPortalJson(d: Id, p: Id): Promise<Record<string, unknown> | null> {
  try {
    const { data } = await assetApi.source(d, p, 'portal.json');
    const parsed = parseJson(data);
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
