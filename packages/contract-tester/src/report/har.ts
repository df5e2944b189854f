import type { ExchangeRecord } from '../http/http-client.js';

/** A HAR 1.2 entry's content: text when it is UTF-8, else base64. */
function content(bytes: Buffer, mimeType: string): { size: number; mimeType: string; text: string; encoding?: string } {
  const text = bytes.toString('utf8');
  if (Buffer.from(text, 'utf8').equals(bytes)) return { size: bytes.length, mimeType, text };
  return { size: bytes.length, mimeType, text: bytes.toString('base64'), encoding: 'base64' };
}

const headerList = (headers: Record<string, string | string[] | undefined>) =>
  Object.entries(headers).flatMap(([name, value]) =>
    value === undefined ? [] : (Array.isArray(value) ? value : [value]).map((one) => ({ name, value: one })),
  );

/** One exchange as a HAR 1.2 entry; secrets are their variables (`$CONTRACT_TEST_…`), as the record has them. */
export function harEntry(record: ExchangeRecord, origin: string): Record<string, unknown> {
  const url = new URL(record.target, origin);
  const requestType = record.headers.find(({ name }) => name.toLowerCase() === 'content-type')?.value ?? '';
  const { response } = record;
  const time = response?.elapsedMs ?? 0;
  return {
    startedDateTime: record.startedAt.toISOString(),
    time,
    request: {
      method: record.request.method,
      url: url.href,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: record.headers,
      queryString: [...url.searchParams].map(([name, value]) => ({ name, value })),
      ...(record.request.body ? { postData: content(record.request.body, requestType) } : {}),
      headersSize: -1,
      bodySize: record.request.body?.length ?? 0,
    },
    response: response
      ? {
          status: response.status,
          statusText: '',
          httpVersion: 'HTTP/1.1',
          cookies: [],
          headers: headerList(response.headers),
          content: content(response.bytes, String(response.headers['content-type'] ?? '')),
          redirectURL: String(response.headers['location'] ?? ''),
          headersSize: -1,
          bodySize: response.bytes.length,
        }
      : {
          status: 0,
          statusText: record.error ?? 'no answer',
          httpVersion: 'HTTP/1.1',
          cookies: [],
          headers: [],
          content: { size: 0, mimeType: '' },
          redirectURL: '',
          headersSize: -1,
          bodySize: -1,
        },
    cache: {},
    timings: { send: 0, wait: time, receive: 0 },
    ...(record.error ? { comment: record.error } : {}),
  };
}

/** Every exchange of a run as a HAR 1.2 log. */
export function harLog(records: ExchangeRecord[], origin: string, version: string): string {
  const log = {
    log: {
      version: '1.2',
      creator: { name: 'openapi-contract-tester', version },
      entries: records.map((record) => harEntry(record, origin)),
    },
  };
  return `${JSON.stringify(log, null, 1)}\n`;
}
