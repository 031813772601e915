/**
 * Builds the pages (unless E2E_SKIP_BUILD=1), starts a real SMTP server in this process and the
 * production server (sending its mail there) on a fresh data folder and a free port, and hands
 * their addresses to the tests.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startMailbox } from '../server/mailbox';
import { startServer } from './server';

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string;
    dataDir: string;
    /** Where each mail the server sent is written as JSON (tests/e2e/mail.ts reads them). */
    mailDir: string;
  }
}

export default async function setup(project: TestProject) {
  const mailDir = mkdtempSync(path.join(tmpdir(), 'posts-e2e-mail-'));
  const mailbox = await startMailbox({ saveTo: mailDir });
  const server = await startServer({
    build: process.env.E2E_SKIP_BUILD !== '1',
    env: { SMTP_URL: mailbox.url, MAIL_FROM: 'Posts <no-reply@posts.example>' },
  });
  project.provide('baseURL', server.baseURL);
  project.provide('dataDir', server.dataDir);
  project.provide('mailDir', mailDir);
  return async () => {
    await server.stop();
    await mailbox.close();
    rmSync(mailDir, { recursive: true, force: true });
  };
}
