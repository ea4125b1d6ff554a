import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { failedRoomMessage, REALTIME, RealtimeClient, type RealtimeEvent } from './realtime';

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
  close() {
    this.readyState = 3;
    this.dispatchEvent(new CloseEvent('close', { code: 1000 }));
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
    await vi.waitFor(() => expect(FakeSocket.instances.length).toBe(2), { timeout: 4000 });
    last().open();
    await vi.waitFor(() => expect(last().sent.map((m) => m.room)).toEqual(['user-1']));
    client.disconnect();
  });
});
