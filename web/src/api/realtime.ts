/**
 * The realtime channel client (spec 3 §4 "Realtime channel and notifications", §9 constants;
 * docs/api.md "Realtime"). It connects to api/v1/ws with a fresh single-use ticket on every
 * (re)connection, rejoins its rooms after a reconnect, and turns the socket into events:
 * CONNECTED, DISCONNECTED, JOINED, LEFT, MESSAGE, ERROR.
 *
 * - Reconnection is unlimited: 1 s growing to 5 s, randomised by 0.5, 20 s connection time-out
 *   (partysocket reconnects; the jitter is added before each ticket is fetched).
 * - join/leave wait 2.5 s for the server's ack, resend once (join) or twice (leave), and re-attempt
 *   the whole exchange up to 3 times 500 ms apart; then the spec's message is raised and the
 *   socket disconnects.
 * - Unparseable messages are dropped, and so is a message identical to one received within 25 ms.
 * - The server follows the session (docs/decisions.md "Realtime sockets follow the session"):
 *   close code 4401 means the session ended — the client stops reconnecting and reports it as
 *   an API 401 would (reason "<errorCode>: <message>"); `{type:"left", room}` means a right was
 *   lost — the room is forgotten (not rejoined after a reconnect) and LEFT is emitted.
 */
import ReconnectingWebSocket from 'partysocket/ws';
import { api, handleUnauthorized } from './client';
import { ApiError } from './errors';

/** The close code of a socket whose session ended. */
export const SESSION_ENDED_CLOSE_CODE = 4401;

export const REALTIME = {
  minReconnectionDelayMs: 1000,
  maxReconnectionDelayMs: 5000,
  randomisation: 0.5,
  connectionTimeoutMs: 20_000,
  ackTimeoutMs: 2500,
  joinRetries: 1,
  leaveRetries: 2,
  reattempts: 3,
  reattemptDelayMs: 500,
  duplicateWindowMs: 25,
} as const;

export type RealtimeStatus = 'DISCONNECTED' | 'CONNECTED' | 'ERROR';

export interface RoomMessage {
  room: string;
  title: string;
  data: unknown;
  messageType: 'PROGRESS' | 'NOTIFICATION';
}

export type RealtimeEvent =
  | { type: 'CONNECTED' }
  | { type: 'DISCONNECTED' }
  | { type: 'JOINED'; room: string }
  | { type: 'LEFT'; room: string }
  | { type: 'MESSAGE'; message: RoomMessage }
  | { type: 'ERROR'; message: string };

interface Ack {
  type: 'ack';
  ack: number;
  ok: boolean;
  room: string;
  error?: string;
}

/** The message raised when a room could not be joined or left (spec 3 §4). */
export const failedRoomMessage = (room: string, action: 'joined' | 'left') =>
  `After many failed attempts, room ${room} could not be ${action}. Disconnecting WebSockets`;

/** The socket URL with a fresh ticket: ws(s)://<this host>/api/v1/ws?ticket=… */
export async function ticketUrl(): Promise<string> {
  const { ticket } = await api.post<{ ticket: string }>('ws/ticket');
  const base = new URL('api/v1/ws', document.baseURI);
  base.protocol = base.protocol === 'https:' ? 'wss:' : 'ws:';
  base.searchParams.set('ticket', ticket);
  return base.toString();
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export interface RealtimeOptions {
  /** Gives the URL to connect to (default: a fresh ticket). */
  url?: () => Promise<string>;
  /** The WebSocket implementation (tests pass their own). */
  WebSocket?: typeof WebSocket;
  random?: () => number;
}

export class RealtimeClient {
  status: RealtimeStatus = 'DISCONNECTED';
  private socket: ReconnectingWebSocket | null = null;
  private readonly rooms = new Set<string>();
  private readonly listeners = new Set<(event: RealtimeEvent) => void>();
  private readonly pending = new Map<number, (ack: Ack) => void>();
  private nextAck = 1;
  private lastRaw = '';
  private lastAt = 0;

  constructor(private readonly options: RealtimeOptions = {}) {}

  on(listener: (event: RealtimeEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(event: RealtimeEvent) {
    for (const listener of [...this.listeners]) listener(event);
  }

  connect(): void {
    if (this.socket) return;
    const url = this.options.url ?? ticketUrl;
    const random = this.options.random ?? Math.random;
    let attempt = 0;
    const provider = async () => {
      // partysocket waits min(1 s × 1.3^n, 5 s) before calling; add up to half of it again.
      if (attempt > 0) {
        const base = Math.min(REALTIME.minReconnectionDelayMs * 1.3 ** (attempt - 1), REALTIME.maxReconnectionDelayMs);
        await sleep(base * REALTIME.randomisation * random());
      }
      attempt++;
      return url();
    };
    const socket = new ReconnectingWebSocket(provider, [], {
      WebSocket: this.options.WebSocket,
      minReconnectionDelay: REALTIME.minReconnectionDelayMs,
      maxReconnectionDelay: REALTIME.maxReconnectionDelayMs,
      reconnectionDelayGrowFactor: 1.3,
      connectionTimeout: REALTIME.connectionTimeoutMs,
      maxRetries: Infinity,
      maxEnqueuedMessages: 0,
    });
    this.socket = socket;
    socket.addEventListener('open', () => {
      attempt = 0;
      this.status = 'CONNECTED';
      this.emit({ type: 'CONNECTED' });
      for (const room of this.rooms) void this.exchange('join', room);
    });
    socket.addEventListener('close', (event: CloseEvent) => {
      if (event.code === SESSION_ENDED_CLOSE_CODE) {
        this.disconnect();
        const [code, ...rest] = String(event.reason ?? '').split(': ');
        handleUnauthorized(
          new ApiError({
            httpStatus: 401,
            errorCode: code || 'UNAUTHORIZED',
            errorMessage: rest.join(': ') || undefined,
          }),
        );
        return;
      }
      if (this.status !== 'DISCONNECTED') {
        this.status = 'DISCONNECTED';
        this.emit({ type: 'DISCONNECTED' });
      }
    });
    socket.addEventListener('error', () => {
      this.status = 'ERROR';
    });
    socket.addEventListener('message', (event: MessageEvent) => this.receive(String(event.data)));
    // Offline, an open socket cannot be trusted (browsers may keep it looking open): drop it,
    // so the app polls, and let partysocket back off until the network is back.
    this.onOffline = () => socket.reconnect();
    this.onOnline = () => {
      if (this.status !== 'CONNECTED') socket.reconnect();
    };
    window.addEventListener('offline', this.onOffline);
    window.addEventListener('online', this.onOnline);
  }

  private onOffline: (() => void) | null = null;
  private onOnline: (() => void) | null = null;

  disconnect(): void {
    const socket = this.socket;
    this.socket = null;
    if (this.onOffline) window.removeEventListener('offline', this.onOffline);
    if (this.onOnline) window.removeEventListener('online', this.onOnline);
    this.onOffline = this.onOnline = null;
    this.pending.clear();
    if (socket) socket.close();
    if (this.status !== 'DISCONNECTED') {
      this.status = 'DISCONNECTED';
      this.emit({ type: 'DISCONNECTED' });
    }
  }

  /** Joins a room now (when connected) and after every reconnect. */
  async join(room: string): Promise<boolean> {
    this.rooms.add(room);
    if (this.status !== 'CONNECTED') return false;
    return this.exchange('join', room);
  }

  /** Leaves a room. */
  async leave(room: string): Promise<boolean> {
    this.rooms.delete(room);
    if (this.status !== 'CONNECTED') return false;
    return this.exchange('leave', room);
  }

  private receive(raw: string) {
    const now = Date.now();
    if (raw === this.lastRaw && now - this.lastAt < REALTIME.duplicateWindowMs) return;
    this.lastRaw = raw;
    this.lastAt = now;
    let message: unknown;
    try {
      message = JSON.parse(raw);
    } catch {
      return; // unparseable messages are dropped
    }
    if (!message || typeof message !== 'object') return;
    const m = message as Partial<Ack> & Partial<RoomMessage>;
    if (m.type === 'ack' && typeof m.ack === 'number') {
      this.pending.get(m.ack)?.(m as Ack);
      return;
    }
    if ((m as { type?: string }).type === 'left' && typeof m.room === 'string') {
      this.rooms.delete(m.room); // a right was lost: never rejoin it
      this.emit({ type: 'LEFT', room: m.room });
      return;
    }
    if (typeof m.room === 'string' && typeof m.title === 'string')
      this.emit({ type: 'MESSAGE', message: m as RoomMessage });
  }

  /** One join/leave with resends and re-attempts; false (and a disconnect) when it never got through. */
  private async exchange(type: 'join' | 'leave', room: string): Promise<boolean> {
    const resends = type === 'join' ? REALTIME.joinRetries : REALTIME.leaveRetries;
    for (let reattempt = 0; reattempt <= REALTIME.reattempts; reattempt++) {
      if (reattempt > 0) await sleep(REALTIME.reattemptDelayMs);
      for (let send = 0; send <= resends; send++) {
        const ack = await this.sendAndWait(type, room);
        if (ack === 'closed') return false;
        if (ack) {
          if (!ack.ok) {
            this.emit({
              type: 'ERROR',
              message: `Room ${room} could not be ${type === 'join' ? 'joined' : 'left'}: ${ack.error ?? 'refused'}`,
            });
            if (type === 'join') this.rooms.delete(room);
            return false;
          }
          this.emit(type === 'join' ? { type: 'JOINED', room } : { type: 'LEFT', room });
          return true;
        }
      }
    }
    this.emit({ type: 'ERROR', message: failedRoomMessage(room, type === 'join' ? 'joined' : 'left') });
    this.disconnect();
    return false;
  }

  private sendAndWait(type: 'join' | 'leave', room: string): Promise<Ack | null | 'closed'> {
    const socket = this.socket;
    if (!socket || this.status !== 'CONNECTED') return Promise.resolve('closed');
    const ack = this.nextAck++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(ack);
        resolve(null);
      }, REALTIME.ackTimeoutMs);
      this.pending.set(ack, (answer) => {
        clearTimeout(timer);
        this.pending.delete(ack);
        resolve(answer);
      });
      socket.send(JSON.stringify({ type, room, ack }));
    });
  }
}
