import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';

/**
 * The msw server for client tests; each test installs the handlers it needs. The default: the
 * instance's facts, which the composer reads when photos are first added (issue 71).
 */
export const server = setupServer(
  http.get('*/api/instance', () =>
    HttpResponse.json({ name: 'Posts', contactEmail: 'admin@example.com', maxPostImages: 10 }),
  ),
);
