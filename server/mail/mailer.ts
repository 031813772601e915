/**
 * Sends mail: through SMTP (nodemailer) when `SMTP_URL` is set, otherwise into the log, so an
 * instance without a mail server still works and its admin can hand a link on by hand.
 */
import { createTransport } from 'nodemailer';

/** One message: plain text, and the same in simple HTML. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

export function smtpMailer(smtpUrl: string, from: string): Mailer {
  // Short timeouts: a dead mail server must not hold a shutdown (which waits for the outbox) for minutes.
  const transport = createTransport({
    url: smtpUrl,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
  return {
    async send(message) {
      await transport.sendMail({ from, ...message });
    },
    close: () => transport.close(),
  };
}

/** Writes each message (its text holds the link) to the log instead of sending it. */
export function logMailer(log: { warn(object: object, message: string): void }): Mailer {
  return {
    async send({ to, subject, text }) {
      log.warn({ mail: { to, subject, text } }, `Mail not sent (SMTP_URL is not set): ${subject}\n${text}`);
    },
    close: () => {},
  };
}
