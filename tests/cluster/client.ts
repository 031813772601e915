/** A browser-like HTTP client for the cluster test: real requests, a cookie jar, any instance. */
import { randomBytes } from 'node:crypto';

export interface Answer {
  status: number;
  body: unknown;
}

export class Client {
  readonly cookies = new Map<string, string>();

  /** `base`: the balancer or one instance; the cookies go with the client, as a browser's would. */
  async request(base: string, method: string, path: string, body?: object | FormData): Promise<Answer> {
    const headers: Record<string, string> = {};
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    if (body && !(body instanceof FormData)) headers['content-type'] = 'application/json';
    const res = await fetch(base + path, {
      method,
      headers,
      body: body instanceof FormData ? body : body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(30_000),
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const name = pair.slice(0, pair.indexOf('='));
      const value = pair.slice(pair.indexOf('=') + 1);
      if (value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON: kept as text
    }
    return { status: res.status, body: parsed };
  }
}

export interface Account {
  client: Client;
  id: string;
  username: string;
  email: string;
  password: string;
}

/** Signs a new user up and in through `base`. */
export async function signUp(base: string): Promise<Account> {
  const username = `c_${randomBytes(5).toString('hex')}`;
  const email = `${username}@example.com`;
  const password = 'correct horse battery';
  const client = new Client();
  const signup = await client.request(base, 'POST', '/api/auth/signup', { username, email, password });
  if (signup.status !== 201) throw new Error(`signup answered ${signup.status}: ${JSON.stringify(signup.body)}`);
  const login = await client.request(base, 'POST', '/api/auth/login', { email, password });
  if (login.status !== 200) throw new Error(`login answered ${login.status}: ${JSON.stringify(login.body)}`);
  const me = await client.request(base, 'GET', '/api/auth/getLoggedUser');
  return { client, id: (me.body as { _id: string })._id, username, email, password };
}
