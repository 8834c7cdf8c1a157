/** A small JSON client over real HTTP (fetch) for the tests. */

export type Response<T = any> = { status: number; headers: Headers; body: T; text: string };

export type Client = {
  get<T = any>(path: string, headers?: Record<string, string>): Promise<Response<T>>;
  post<T = any>(path: string, body?: unknown, headers?: Record<string, string>): Promise<Response<T>>;
  del<T = any>(path: string, headers?: Record<string, string>): Promise<Response<T>>;
  request<T = any>(
    method: string,
    path: string,
    init?: { body?: string; headers?: Record<string, string> },
  ): Promise<Response<T>>;
};

export function client(baseUrl: string): Client {
  const request = async (
    method: string,
    path: string,
    init: { body?: string; headers?: Record<string, string> } = {},
  ) => {
    // Redirects are answers under test (/todo, /draw), not something to follow.
    const response = await fetch(baseUrl + path, {
      method,
      body: init.body,
      headers: init.headers,
      redirect: 'manual',
    });
    const text = await response.text();
    let body: any = text;
    if ((response.headers.get('content-type') ?? '').includes('json') && text !== '') body = JSON.parse(text);
    return { status: response.status, headers: response.headers, body, text };
  };
  return {
    request,
    get: (path, headers) => request('GET', path, { headers }),
    post: (path, body, headers = {}) =>
      request('POST', path, {
        body: body === undefined ? undefined : JSON.stringify(body),
        headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
      }),
    del: (path, headers) => request('DELETE', path, { headers }),
  };
}

/** A tiny valid PNG (1x1) as a data URL, and a data URL of about `bytes` decoded bytes. */
export const PNG_1PX =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

export function pngOfBytes(bytes: number): string {
  const header = Buffer.from(PNG_1PX.split(',')[1], 'base64');
  const payload = Buffer.alloc(bytes);
  header.copy(payload, 0, 0, Math.min(header.length, bytes));
  return `data:image/png;base64,${payload.toString('base64')}`;
}

/** Creates a board through REST (`POST /api/boards`, `body` as the contract's creation body) and answers its id. */
export async function createBoard(baseUrl: string, body: unknown = {}): Promise<string> {
  const response = await fetch(`${baseUrl}/api/boards`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`POST /api/boards: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { id: string }).id;
}
