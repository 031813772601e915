/**
 * `/users/{id}`, a person's ActivityPub address (issue 32), opened in a browser: 303 See Other to
 * their profile page. The address names the person, not a page, so the answer says where a page
 * about them is rather than that it moved (a rename changes that page's address: nothing may keep
 * the redirect as permanent). ActivityPub clients are answered by federation's hook before this
 * route runs; anyone else (nobody by that id, someone elsewhere, a suspended account) gets the
 * pages' 404.
 */
import type { FastifyPluginAsync } from 'fastify';
import { links } from '../../lib/pages';
import { wantsActivityJson } from '../federation/routes';
import type { UsersService } from '../users/service';
import type { RenderPage } from './privatePages';

export const actorPage: FastifyPluginAsync<{ users: Pick<UsersService, 'localNameOf'>; render: RenderPage }> = async (
  app,
  { users, render },
) => {
  app.get<{ Params: { id: string } }>('/users/:id', { schema: { hide: true } }, async (request, reply) => {
    // The same address is the actor's JSON for ActivityPub clients: caches must keep the two apart.
    reply.header('Vary', 'Accept');
    const name = wantsActivityJson(request.headers.accept) ? null : await users.localNameOf(request.params.id);
    if (name) return reply.redirect(links.profile(name), 303);
    await render(request, reply);
  });
};
