import { setupServer } from 'msw/node';

/** The msw server for client tests; each test installs the handlers it needs. */
export const server = setupServer();
