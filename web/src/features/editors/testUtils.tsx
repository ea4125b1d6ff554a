/** Test helpers of the editors: render with the toast stack, and file answers with an ETag. */
import type { ReactElement } from 'react';
import { ToastStack } from '../../ui/ToastStack';
import { clearToasts } from '../../core/toastService';
import { renderWithProviders, signIn } from '../../test/render';
// The JSON form is loaded lazily by the editor; loaded here, with the test file, its lazy import
// answers at once instead of counting a busy machine's module loading against a test's wait.
import './JsonForm';

export function renderEditor(ui: ReactElement) {
  clearToasts();
  signIn();
  return renderWithProviders(
    <>
      {ui}
      <ToastStack />
    </>,
  );
}

export function fileResponse(text: string, version: string, type = 'text/plain'): Response {
  return new Response(text, { status: 200, headers: { 'Content-Type': type, ETag: `"${version}"` } });
}

export function savedResponse(path: string, version: string): Response {
  return new Response(JSON.stringify({ name: path.split('/').pop(), path, type: 'text/plain', version }), {
    status: 200,
    headers: { 'Content-Type': 'application/json', ETag: `"${version}"` },
  });
}

/** The headers and JSON body of the n-th call to `key` ("METHOD url"). */
export function nthCall(fetch: { mock: { calls: unknown[][] } }, key: string, n = 0) {
  const [method, path] = key.split(' ');
  const calls = fetch.mock.calls.filter(([url, init]) => {
    const m = ((init as RequestInit | undefined)?.method ?? 'GET').toUpperCase();
    return m === method && String(url).split('?')[0] === path;
  });
  const init = calls[n]?.[1] as RequestInit | undefined;
  if (!init) throw new Error(`no call ${n} to ${key}`);
  return { headers: new Headers(init.headers), body: JSON.parse(String(init.body)) as { data: string } };
}
