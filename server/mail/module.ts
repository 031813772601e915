/** Mail wired: SMTP when `SMTP_URL` is set (else mails go to the log), sent from a bounded outbox after each commit. */
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import { logMailer, smtpMailer } from './mailer';
import { outbox as createOutbox } from './outbox';

export function mailFeature(config: Config, log: Pick<FastifyBaseLogger, 'warn' | 'error'>) {
  return {
    mailer: config.smtpUrl ? smtpMailer(config.smtpUrl, config.mailFrom) : logMailer(log),
    outbox: createOutbox({
      onError: (error) => log.error({ err: error }, 'sending a mail failed'),
      onDropped: () => log.error('Too many mails waiting to be sent: one was dropped'),
    }),
  };
}
