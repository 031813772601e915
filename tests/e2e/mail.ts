/** The mails the server sent to the suite's SMTP server (tests/e2e/globalSetup.ts), read from its folder. */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { inject } from 'vitest';
import type { Mail } from '../server/mailbox';

export { linkIn } from '../server/mailbox';

function mailsTo(address: string): Mail[] {
  const dir = inject('mailDir');
  return readdirSync(dir)
    .filter((file) => /^\d+\.json$/.test(file))
    .sort((a, b) => parseInt(a, 10) - parseInt(b, 10))
    .map((file) => JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as Mail)
    .filter((mail) => mail.to.toLowerCase().includes(address.toLowerCase()));
}

/**
 * The `nth` mail (1: the first) to `address` whose subject has `subject`, waiting up to `timeoutMs`
 * for it to arrive.
 */
export async function waitForMail(address: string, subject: string, nth = 1, timeoutMs = 15_000): Promise<Mail> {
  const started = Date.now();
  for (;;) {
    const found = mailsTo(address).filter((mail) => mail.subject.includes(subject));
    if (found.length >= nth) return found[nth - 1];
    if (Date.now() - started > timeoutMs) throw new Error(`No mail to ${address} about "${subject}"`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
