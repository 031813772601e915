/**
 * A real SMTP server in the test process (smtp-server), whose messages are parsed with mailparser:
 * tests read links from the mails the app really sent. `hold()` makes it slow on purpose: it takes
 * no message until `release()`.
 */
import { renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface Mail {
  to: string;
  from: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailbox {
  /** `smtp://127.0.0.1:<port>` for SMTP_URL. */
  url: string;
  mails: Mail[];
  /** The first mail to `to` (whose subject has `subject`) arriving from now on or already here, within `timeoutMs`. */
  next(to: string, subject?: string, timeoutMs?: number): Promise<Mail>;
  /** Every mail to `to`. */
  to(address: string): Mail[];
  /** Holds every message until `release()`. */
  hold(): void;
  release(): void;
  /** Messages the server is holding right now (received, not yet accepted). */
  held(): number;
  close(): Promise<void>;
}

const addressText = (value: ParsedMail['to'] | ParsedMail['from']) =>
  (Array.isArray(value) ? value : value ? [value] : []).map((a) => a.text).join(', ');

/** The link a mail carries that starts with `base` (e.g. `http://host/resetPassword`). */
export function linkIn(mail: Mail, path: string): URL {
  const match = mail.text.match(new RegExp(`https?://\\S+${path}\\?token=[\\w-]+`));
  if (!match) throw new Error(`No ${path} link in the mail "${mail.subject}":\n${mail.text}`);
  return new URL(match[0]);
}

/** `saveTo`: also writes each mail there as `<n>.json` (the browser suite reads them from its workers). */
export async function startMailbox({ saveTo }: { saveTo?: string } = {}): Promise<Mailbox> {
  const mails: Mail[] = [];
  const waiters: { match: (mail: Mail) => boolean; resolve: (mail: Mail) => void }[] = [];
  let gate: Promise<void> | null = null;
  let open: () => void = () => {};
  let holding = 0;

  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      void (async () => {
        try {
          const parsed = await simpleParser(stream);
          if (gate) {
            holding += 1;
            await gate;
            holding -= 1;
          }
          const mail: Mail = {
            to: addressText(parsed.to),
            from: addressText(parsed.from),
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : '',
          };
          mails.push(mail);
          if (saveTo) {
            // Written aside, then renamed: a reader polling the folder never sees a half-written mail.
            const written = path.join(saveTo, `.${mails.length}.json.part`);
            writeFileSync(written, JSON.stringify(mail));
            renameSync(written, path.join(saveTo, `${mails.length}.json`));
          }
          for (const waiter of [...waiters]) {
            if (waiter.match(mail)) {
              waiters.splice(waiters.indexOf(waiter), 1);
              waiter.resolve(mail);
            }
          }
          callback();
        } catch (error) {
          callback(error as Error);
        }
      })();
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as { port: number };

  const matcher = (to: string, subject?: string) => (mail: Mail) =>
    mail.to.toLowerCase().includes(to.toLowerCase()) && (subject === undefined || mail.subject.includes(subject));

  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    next(to, subject, timeoutMs = 10_000) {
      const match = matcher(to, subject);
      const found = mails.find(match);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`No mail to ${to}${subject ? ` about "${subject}"` : ''} within ${timeoutMs} ms`)),
          timeoutMs,
        );
        waiters.push({
          match,
          resolve: (mail) => {
            clearTimeout(timer);
            resolve(mail);
          },
        });
      });
    },
    to: (address) => mails.filter(matcher(address)),
    hold() {
      gate = new Promise((resolve) => (open = resolve));
    },
    release() {
      gate = null;
      open();
    },
    held: () => holding,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
