import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { authEvents } from './client';
import { failedRoomMessage, REALTIME, RealtimeClient, SESSION_ENDED_CLOSE_CODE, type RealtimeEvent } from './realtime';

/** A stand-in for the browser's WebSocket: records what is sent, lets the test answer. */
class FakeSocket extends EventTarget {
  static instances: FakeSocket[] = [];
  static CONNECTING = 0;
  static OPEN = 1;
  static CLOSING = 2;
  static CLOSED = 3;
  readyState = 0;
  binaryType = 'blob';
  sent: Array<{ type: string; room: string; ack: number }> = [];
  constructor(public url: string) {
    super();
    FakeSocket.instances.push(this);
  }
  open() {
    this.readyState = 1;
    this.dispatchEvent(new Event('open'));
  }
  send(data: string) {
    this.sent.push(JSON.parse(data));
  }
  receive(data: unknown) {
    this.dispatchEvent(new MessageEvent('message', { data: typeof data === 'string' ? data : JSON.stringify(data) }));
  }
  close(code = 1000, reason = '') {
    this.readyState = 3;
    this.dispatchEvent(new CloseEvent('close', { code, reason }));
  }
}

const last = () => FakeSocket.instances[FakeSocket.instances.length - 1];

async function connected(events: RealtimeEvent[]) {
  const client = new RealtimeClient({
    url: async () => 'ws://test/api/v1/ws?ticket=t',
    WebSocket: FakeSocket as never,
    random: () => 0,
  });
  client.on((e) => events.push(e));
  client.connect();
  await vi.waitFor(() => expect(FakeSocket.instances.length).toBeGreaterThan(0));
  last().open();
  return client;
}

describe('RealtimeClient', () => {
  beforeEach(() => {
    FakeSocket.instances = [];
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('joins a room with an acknowledged message and delivers room messages', async () => {
    const events: RealtimeEvent[] = [];
    const client = await connected(events);
    expect(events).toContainEqual({ type: 'CONNECTED' });
    const joined = client.join('portal-1');
    await vi.waitFor(() => expect(last().sent).toHaveLength(1));
    const { ack, type, room } = last().sent[0];
    expect({ type, room }).toEqual({ type: 'join', room: 'portal-1' });
    last().receive({ type: 'ack', ack, ok: true, room: 'portal-1' });
    await expect(joined).resolves.toBe(true);
    expect(events).toContainEqual({ type: 'JOINED', room: 'portal-1' });

    const message = {
      room: 'portal-1',
      title: 'WORKSPACE_COMMIT',
      data: { branch: 'master' },
      messageType: 'NOTIFICATION',
    };
    last().receive(message);
    last().receive(message); // the same message within 25 ms: dropped
    last().receive('{not json'); // dropped
    expect(events.filter((e) => e.type === 'MESSAGE')).toEqual([{ type: 'MESSAGE', message }]);
    client.disconnect();
  });

  it('a refused join is an error and is not retried', async () => {
    const events: RealtimeEvent[] = [];
    const client = await connected(events);
    const joined = client.join('domain-9');
    await vi.waitFor(() => expect(last().sent).toHaveLength(1));
    last().receive({
      type: 'ack',
      ack: last().sent[0].ack,
      ok: false,
      room: 'domain-9',
      error: 'not allowed to join this room',
    });
    await expect(joined).resolves.toBe(false);
    expect(events.some((e) => e.type === 'ERROR')).toBe(true);
    expect(last().sent).toHaveLength(1);
    client.disconnect();
  });

  it('without acks it resends, re-attempts, then raises the spec message and disconnects', async () => {
    const events: RealtimeEvent[] = [];
    const client = await connected(events);
    vi.useFakeTimers();
    const joined = client.join('portal-2');
    // (1 send + 1 resend) per attempt, 1 + 3 attempts: 8 sends of 2.5 s, and 3 pauses of 500 ms.
    for (let i = 0; i < 12; i++) await vi.advanceTimersByTimeAsync(REALTIME.ackTimeoutMs);
    await expect(joined).resolves.toBe(false);
    expect(last().sent).toHaveLength((REALTIME.joinRetries + 1) * (REALTIME.reattempts + 1));
    expect(events).toContainEqual({ type: 'ERROR', message: failedRoomMessage('portal-2', 'joined') });
    expect(events).toContainEqual({ type: 'DISCONNECTED' });
    expect(client.status).toBe('DISCONNECTED');
  });

  it('rejoins its rooms after a reconnect', async () => {
    const events: RealtimeEvent[] = [];
    const client = await connected(events);
    const joined = client.join('user-1');
    await vi.waitFor(() => expect(last().sent).toHaveLength(1));
    last().receive({ type: 'ack', ack: last().sent[0].ack, ok: true, room: 'user-1' });
    await joined;
    const first = last();
    first.close();
    await vi.waitFor(() => expect(FakeSocket.instances.length).toBe(2), { timeout: 30_000 });
    last().open();
    await vi.waitFor(() => expect(last().sent.map((m) => m.room)).toEqual(['user-1']));
    client.disconnect();
  });

  it('forgets a room the server took away and does not rejoin it', async () => {
    const events: RealtimeEvent[] = [];
    const client = await connected(events);
    for (const room of ['user-1', 'portal-3']) {
      const joined = client.join(room);
      await vi.waitFor(() => expect(last().sent.some((m) => m.room === room)).toBe(true));
      const sent = last().sent.find((m) => m.room === room)!;
      last().receive({ type: 'ack', ack: sent.ack, ok: true, room });
      await joined;
    }
    last().receive({ type: 'left', room: 'portal-3', reason: 'You are no longer allowed in this room.' });
    expect(events).toContainEqual({ type: 'LEFT', room: 'portal-3' });
    last().close();
    await vi.waitFor(() => expect(FakeSocket.instances.length).toBe(2), { timeout: 30_000 });
    last().open();
    await vi.waitFor(() => expect(last().sent.map((m) => m.room)).toEqual(['user-1']));
    client.disconnect();
  });

  it('stops reconnecting when the server closes the socket because the session ended', async () => {
    const events: RealtimeEvent[] = [];
    const expired = vi.fn();
    const off = authEvents.on('sessionExpired', expired);
    const client = await connected(events);
    last().close(SESSION_ENDED_CLOSE_CODE, 'SESSION_EXPIRED: It appears you have logged into another session');
    expect(client.status).toBe('DISCONNECTED');
    expect(expired).toHaveBeenCalledTimes(1);
    expect(expired.mock.calls[0][0]).toMatchObject({ httpStatus: 401, errorCode: 'SESSION_EXPIRED' });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(FakeSocket.instances).toHaveLength(1);
    off();
  });
});
