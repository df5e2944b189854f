import { connect, type Socket } from 'node:net';
import { checkContract } from './contract-check.js';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
  body: unknown;
  /** Interim responses (100 Continue) seen before the final one. */
  interim: number[];
}

/** One open connection to the server, for requests that fetch and supertest cannot send. */
export class RawConnection {
  private buffer = Buffer.alloc(0);
  private waiters: Array<() => void> = [];
  /** Resolves when the server closed the connection (or it broke). */
  readonly closed: Promise<void>;

  private constructor(readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      for (const wake of this.waiters.splice(0)) wake();
    });
    socket.on('error', () => {});
    this.closed = new Promise((resolve) => socket.once('close', () => resolve()));
    void this.closed.then(() => {
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  static open(origin: string): Promise<RawConnection> {
    const { hostname, port } = new URL(origin);
    return new Promise((resolve, reject) => {
      const socket = connect(Number(port), hostname, () => resolve(new RawConnection(socket)));
      socket.once('error', reject);
    });
  }

  write(data: string | Buffer): void {
    this.socket.write(data);
  }

  private async more(): Promise<boolean> {
    if (this.socket.destroyed && this.socket.readableEnded) return false;
    await new Promise<void>((resolve) => this.waiters.push(resolve));
    return true;
  }

  /**
   * The next response on the connection, interim ones (1xx) collected on the way. A response to
   * HEAD has no body whatever its Content-Length says: pass `head`.
   */
  async response({ head = false, interimOnly = false } = {}): Promise<RawResponse> {
    const interim: number[] = [];
    for (;;) {
      const end = this.buffer.indexOf('\r\n\r\n');
      if (end === -1) {
        if (!(await this.more()) && this.buffer.indexOf('\r\n\r\n') === -1)
          throw new Error(`connection closed before a response: ${JSON.stringify(this.buffer.toString('latin1'))}`);
        continue;
      }
      const [statusLine, ...lines] = this.buffer.subarray(0, end).toString('latin1').split('\r\n');
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine!)?.[1]);
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        const name = line.slice(0, colon).toLowerCase();
        const value = line.slice(colon + 1).trim();
        headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
      }
      if (status >= 100 && status < 200) {
        this.buffer = this.buffer.subarray(end + 4);
        interim.push(status);
        if (interimOnly) return { status, headers, text: '', body: undefined, interim };
        continue;
      }
      const length = head || status === 204 || status === 304 ? 0 : Number(headers['content-length'] ?? 0);
      while (this.buffer.length < end + 4 + length) {
        if (!(await this.more())) throw new Error('connection closed inside a response body');
      }
      const text = this.buffer.subarray(end + 4, end + 4 + length).toString('utf8');
      this.buffer = this.buffer.subarray(end + 4 + length);
      const body = headers['content-type']?.startsWith('application/json') && text ? (JSON.parse(text) as unknown) : undefined;
      return { status, headers, text, body, interim };
    }
  }

  close(): void {
    this.socket.destroy();
  }
}

/**
 * Sends `data` as is on a new connection and returns the response, checked against openapi.yaml as
 * a response to `method url` (the Error object rules hold for every error, whatever the request).
 * With `closes`, it also waits for the server to close the connection (a test that expects a close
 * which never comes fails by its timeout).
 */
export async function rawRequest(
  origin: string,
  data: string | Buffer,
  { method = 'GET', url = '/', closes = false }: { method?: string; url?: string; closes?: boolean } = {},
): Promise<RawResponse> {
  const connection = await RawConnection.open(origin);
  try {
    connection.write(data);
    const response = await connection.response({ head: method === 'HEAD' });
    checkContract({ method, url, status: response.status, headers: response.headers, body: response.body, text: response.text });
    if (closes) await connection.closed;
    return response;
  } finally {
    connection.close();
  }
}
