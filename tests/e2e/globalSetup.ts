/**
 * Builds the pages (unless E2E_SKIP_BUILD=1), starts the production server on a fresh data folder
 * and a free port, and hands its URL to the tests.
 */
import type { TestProject } from 'vitest/node';
import { startServer } from './server';

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string;
    dataDir: string;
  }
}

export default async function setup(project: TestProject) {
  const server = await startServer({ build: process.env.E2E_SKIP_BUILD !== '1' });
  project.provide('baseURL', server.baseURL);
  project.provide('dataDir', server.dataDir);
  return () => server.stop();
}
