/**
 * A browser behind a round-robin balancer, for tests with several app instances in one process:
 * each request goes to the next instance in turn (no stickiness, as `deploy/nginx/posts.conf`
 * balances), and the cookies go with the browser, set and cleared as the answers say.
 */
import type { LightMyRequestResponse } from 'fastify';
import type { TestApp } from './helpers';

export interface Answer {
  status: number;
  body: unknown;
  /** The instance (its index in the balancer's list) that answered. */
  by: number;
}

export interface Balancer {
  /** The next instance's turn: `via` picks one instead (and the turns go on from it). */
  request(method: string, url: string, payload?: object, via?: number): Promise<Answer>;
  /** The same request on every instance, each answer in the instances' order. */
  onEach(method: string, url: string, payload?: object): Promise<Answer[]>;
  /** The browser's cookies, by name. */
  readonly cookies: Map<string, string>;
  /** Another browser with a copy of these cookies (someone who copied them, a second tab). */
  copy(): Balancer;
}

const bodyOf = (res: LightMyRequestResponse): unknown => {
  try {
    return res.json();
  } catch {
    return res.body;
  }
};

export function balancer(instances: TestApp[], cookies = new Map<string, string>()): Balancer {
  let next = 0;
  async function send(index: number, method: string, url: string, payload?: object): Promise<Answer> {
    const cookie = [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const res = await instances[index].app.inject({
      method: method as 'GET',
      url,
      payload,
      headers: cookie ? { cookie } : {},
    });
    // Every cookie goes with every request (the device cookie too: only sign-in reads it).
    for (const { name, value } of res.cookies) {
      if (value === '') cookies.delete(name);
      else cookies.set(name, value);
    }
    return { status: res.statusCode, body: bodyOf(res), by: index };
  }
  return {
    cookies,
    request(method, url, payload, via) {
      const index = via ?? next;
      next = (index + 1) % instances.length;
      return send(index, method, url, payload);
    },
    async onEach(method, url, payload) {
      const answers: Answer[] = [];
      for (let index = 0; index < instances.length; index += 1) answers.push(await send(index, method, url, payload));
      return answers;
    },
    copy: () => balancer(instances, new Map(cookies)),
  };
}
