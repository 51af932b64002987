/**
 * A small, real protocol 7 server on `ws` for the client's integration tests: enough of Pusher to
 * connect, ping, authorize (HMAC signatures checked as Pusher does), keep presence members, relay client
 * events, sign users in, and misbehave on request (close with a code, go silent). The sandbox emulator
 * replaces it once it lands; keep it small. Also a `node:http` auth endpoint that signs like an app would.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type WebSocket, WebSocketServer } from 'ws';

export interface Credentials {
  key: string;
  secret: string;
}

type Frame = { event: string; channel?: string; data?: unknown; user_id?: string };

interface Peer {
  ws: WebSocket;
  socketId: string;
  channels: Set<string>;
  userId?: string;
  /** Presence user id per presence channel. */
  presence: Map<string, { id: string; info: unknown }>;
}

export const sign = (secret: string, text: string): string =>
  createHmac('sha256', secret).update(text).digest('hex');

export class WsPeer {
  readonly port: number;
  /** Every frame a client sent, in order. */
  readonly received: (Frame & { socketId: string })[] = [];
  /** Every connection ever accepted. */
  connections = 0;
  /** Stop answering anything, pings included: a dead link as the client sees it. */
  silent = false;
  /** Close each new connection with this code instead of greeting it. */
  refuseWith: number | null = null;
  private readonly peers = new Set<Peer>();
  private nextId = 1;

  private constructor(
    private readonly wss: WebSocketServer,
    private readonly creds: Credentials,
    private readonly activityTimeout: number,
  ) {
    this.port = (wss.address() as AddressInfo).port;
    wss.on('connection', (ws, request) => this.accept(ws, request.url ?? ''));
  }

  static async start(creds: Credentials, options: { activityTimeout?: number } = {}): Promise<WsPeer> {
    const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await new Promise<void>((resolve) => wss.once('listening', resolve));
    return new WsPeer(wss, creds, options.activityTimeout ?? 120);
  }

  get sockets(): number {
    return this.peers.size;
  }

  /** Sends an event to every subscriber of `channel`, with `data` as the HTTP API would (a string). */
  trigger(channel: string, event: string, data: unknown): void {
    const payload = typeof data === 'string' ? data : JSON.stringify(data);
    for (const peer of this.peers)
      if (peer.channels.has(channel)) send(peer, { event, channel, data: payload });
  }

  /** Closes every open socket with `code`. */
  closeAll(code: number, reason = ''): void {
    for (const peer of this.peers) peer.ws.close(code, reason);
  }

  /** Drops every socket without a closing handshake (1006 on the client). */
  dropAll(): void {
    for (const peer of this.peers) peer.ws.terminate();
  }

  async close(): Promise<void> {
    for (const peer of this.peers) peer.ws.terminate();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }

  private accept(ws: WebSocket, url: string): void {
    this.connections += 1;
    const path = new URL(url, 'http://x');
    if (this.refuseWith !== null) {
      ws.close(this.refuseWith, 'refused by test');
      return;
    }
    if (path.pathname !== `/app/${this.creds.key}`) {
      ws.close(4001, 'app does not exist');
      return;
    }
    if (path.searchParams.get('protocol') !== '7') {
      ws.close(4007, 'unsupported protocol');
      return;
    }
    const peer: Peer = {
      ws,
      socketId: `${this.nextId++}.${Math.floor(Math.random() * 1e6)}`,
      channels: new Set(),
      presence: new Map(),
    };
    this.peers.add(peer);
    ws.on('message', (raw) => this.handle(peer, String(raw)));
    ws.on('close', () => this.leave(peer));
    ws.on('error', () => {});
    send(peer, {
      event: 'pusher:connection_established',
      data: JSON.stringify({ socket_id: peer.socketId, activity_timeout: this.activityTimeout }),
    });
  }

  private handle(peer: Peer, raw: string): void {
    const frame = JSON.parse(raw) as Frame;
    this.received.push({ ...frame, socketId: peer.socketId });
    if (this.silent) return;
    // Clients send data as an object; older ones as a JSON string. Accept both, as Pusher does.
    const data = (typeof frame.data === 'string' ? JSON.parse(frame.data) : frame.data) as Record<
      string,
      string
    >;
    if (frame.event === 'pusher:ping') send(peer, { event: 'pusher:pong', data: '{}' });
    else if (frame.event === 'pusher:subscribe') this.subscribe(peer, data);
    else if (frame.event === 'pusher:unsubscribe') this.unsubscribe(peer, data.channel as string);
    else if (frame.event === 'pusher:signin') this.signin(peer, data);
    else if (frame.event.startsWith('client-')) this.relay(peer, frame);
  }

  private subscribe(peer: Peer, data: Record<string, string>): void {
    const channel = data.channel as string;
    const presence = channel.startsWith('presence-');
    if (channel.startsWith('#server-to-user-')) {
      if (peer.userId !== channel.slice('#server-to-user-'.length)) {
        this.refuse(peer, channel, 'not signed in as that user');
        return;
      }
    } else if (presence || channel.startsWith('private-')) {
      const text = `${peer.socketId}:${channel}${presence ? `:${data.channel_data}` : ''}`;
      if (!this.valid(data.auth, text)) {
        this.refuse(peer, channel, 'Invalid signature');
        return;
      }
    }
    peer.channels.add(channel);
    if (!presence) {
      send(peer, { event: 'pusher_internal:subscription_succeeded', channel, data: '{}' });
      return;
    }
    const member = JSON.parse(data.channel_data as string) as { user_id: unknown; user_info?: unknown };
    const id = String(member.user_id);
    const isNew = !this.members(channel).has(id);
    peer.presence.set(channel, { id, info: member.user_info });
    const hash = Object.fromEntries(this.members(channel));
    const presenceData = { presence: { ids: Object.keys(hash), hash, count: Object.keys(hash).length } };
    send(peer, {
      event: 'pusher_internal:subscription_succeeded',
      channel,
      data: JSON.stringify(presenceData),
    });
    if (isNew) {
      const added = JSON.stringify({ user_id: id, user_info: member.user_info });
      for (const other of this.others(peer, channel))
        send(other, { event: 'pusher_internal:member_added', channel, data: added });
    }
  }

  private unsubscribe(peer: Peer, channel: string): void {
    peer.channels.delete(channel);
    const member = peer.presence.get(channel);
    peer.presence.delete(channel);
    // member_removed only when the user's last connection leaves, as Pusher does.
    if (member && !this.members(channel).has(member.id)) {
      const removed = JSON.stringify({ user_id: member.id });
      for (const other of this.others(peer, channel))
        send(other, { event: 'pusher_internal:member_removed', channel, data: removed });
    }
  }

  private signin(peer: Peer, data: Record<string, string>): void {
    if (!this.valid(data.auth, `${peer.socketId}::user::${data.user_data}`)) {
      send(peer, {
        event: 'pusher:error',
        data: { message: 'Invalid signature', code: 4009 } as never,
      });
      return;
    }
    peer.userId = String(JSON.parse(data.user_data as string).id);
    send(peer, { event: 'pusher:signin_success', data: JSON.stringify({ user_data: data.user_data }) });
  }

  /** Client events go to the channel's other subscribers, never back to the sender; presence adds user_id. */
  private relay(peer: Peer, frame: Frame): void {
    const channel = frame.channel ?? '';
    if (!peer.channels.has(channel) || !/^(private-|presence-)/.test(channel)) return;
    const out: Frame = { event: frame.event, channel, data: JSON.stringify(frame.data) };
    const member = peer.presence.get(channel);
    if (member) out.user_id = member.id;
    for (const other of this.others(peer, channel)) send(other, out);
  }

  private leave(peer: Peer): void {
    for (const channel of [...peer.channels]) this.unsubscribe(peer, channel);
    this.peers.delete(peer);
  }

  private members(channel: string): Map<string, unknown> {
    const members = new Map<string, unknown>();
    for (const peer of this.peers) {
      const member = peer.presence.get(channel);
      if (member && peer.channels.has(channel)) members.set(member.id, member.info);
    }
    return members;
  }

  private others(peer: Peer, channel: string): Peer[] {
    return [...this.peers].filter((other) => other !== peer && other.channels.has(channel));
  }

  private refuse(peer: Peer, channel: string, error: string): void {
    // soketi's wire form; the protocol page only has a pusher:error without a code.
    send(peer, {
      event: 'pusher:subscription_error',
      channel,
      data: JSON.stringify({ type: 'AuthError', error, status: 401 }),
    });
  }

  private valid(auth: string | undefined, text: string): boolean {
    const expected = Buffer.from(`${this.creds.key}:${sign(this.creds.secret, text)}`);
    const given = Buffer.from(auth ?? '');
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}

function send(peer: Peer, frame: Frame): void {
  if (peer.ws.readyState === peer.ws.OPEN) peer.ws.send(JSON.stringify(frame));
}

/** Pusher's per-channel key for encrypted channels: SHA256(channel name || master key). */
export function channelSharedSecret(channel: string, masterKey: Uint8Array): Uint8Array {
  return createHash('sha256').update(channel).update(masterKey).digest();
}

export interface AuthEndpoint {
  url: string;
  userUrl: string;
  /** Form bodies received, parsed. */
  requests: Record<string, string>[];
  /** Answer the next requests with this status instead of signing. */
  failWith: number | null;
  close(): Promise<void>;
}

/**
 * What an app's auth endpoint does: `/auth` signs channels (presence as user `u-{n}` unless `user_id` is
 * posted; encrypted with the master key), `/user-auth` signs users.
 */
export async function startAuthEndpoint(creds: Credentials, masterKey?: Uint8Array): Promise<AuthEndpoint> {
  const endpoint = { requests: [], failWith: null } as unknown as AuthEndpoint;
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const form = Object.fromEntries(new URLSearchParams(body));
      endpoint.requests.push(form);
      if (endpoint.failWith !== null) {
        res.writeHead(endpoint.failWith, { 'Content-Type': 'application/json' }).end('{"error":"forbidden"}');
        return;
      }
      const socketId = form.socket_id as string;
      let answer: Record<string, string>;
      if (req.url === '/user-auth') {
        const userData = JSON.stringify({ id: form.user_id ?? 'u-1', user_info: { name: 'Ada' } });
        answer = {
          auth: `${creds.key}:${sign(creds.secret, `${socketId}::user::${userData}`)}`,
          user_data: userData,
        };
      } else {
        const channel = form.channel_name as string;
        if (channel.startsWith('presence-')) {
          const channelData = JSON.stringify({
            user_id: form.user_id ?? 'u-1',
            user_info: { name: form.name ?? 'Ada' },
          });
          answer = {
            auth: `${creds.key}:${sign(creds.secret, `${socketId}:${channel}:${channelData}`)}`,
            channel_data: channelData,
          };
        } else {
          answer = { auth: `${creds.key}:${sign(creds.secret, `${socketId}:${channel}`)}` };
          if (channel.startsWith('private-encrypted-') && masterKey) {
            answer.shared_secret = Buffer.from(channelSharedSecret(channel, masterKey)).toString('base64');
          }
        }
      }
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  endpoint.url = `http://127.0.0.1:${port}/auth`;
  endpoint.userUrl = `http://127.0.0.1:${port}/user-auth`;
  endpoint.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return endpoint;
}
