/**
 * The messages the instance sends, in its own name: plain text and the same as simple HTML, in the
 * recipient's language (`users.language`; English when they chose none: issue 75). The texts are
 * the catalogues' `mails` namespace (lib/i18n/messages/<language>/mails.json).
 */
import { directionOf, isLanguage, DEFAULT_LANGUAGE } from '../../lib/i18n/languages';
import { serverTextsIn } from '../../lib/i18n/serverTexts';
import type { MailMessage } from './mailer';
import { escapeHtml } from '../rendering/escapeHtml';

export interface Site {
  /** `INSTANCE_NAME`. */
  name: string;
  /** Where links start (`PUBLIC_URL`). */
  url: string;
}

/** A recipient's language as the account keeps it: any string, or null when never chosen. */
export type MailLanguage = string | null | undefined;

interface Parts {
  subject: string;
  paragraphs: string[];
  /** The link, on a button-like anchor in the HTML. */
  link?: { url: string; label: string };
}

/** Paragraphs of text, one of which may be the link; the HTML puts the link on a button-like anchor. */
function compose(site: Site, to: string, language: MailLanguage, { subject, paragraphs, link }: Parts) {
  const textOf = serverTextsIn(language);
  const lang = isLanguage(language) ? language : DEFAULT_LANGUAGE;
  const closing = `— ${site.name}`;
  const text = [...paragraphs, ...(link ? [link.url] : []), closing].join('\n\n') + '\n';
  const html = [
    `<!doctype html><html lang="${lang}"${directionOf(lang) === 'rtl' ? ' dir="rtl"' : ''}><body style="font-family:sans-serif;line-height:1.5">`,
    ...paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`),
    ...(link
      ? [
          `<p><a href="${escapeHtml(link.url)}" style="display:inline-block;padding:10px 16px;background:#2563eb;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(link.label)}</a></p>`,
          `<p style="font-size:13px;color:#555">${escapeHtml(textOf('mails.copyLink', { url: link.url }))}</p>`,
        ]
      : []),
    `<p>${escapeHtml(closing)}</p>`,
    '</body></html>',
  ].join('\n');
  return { to, subject: `${subject} — ${site.name}`, text, html };
}

export const mails = {
  passwordReset: (site: Site, to: string, url: string, language: MailLanguage): MailMessage => {
    const textOf = serverTextsIn(language);
    return compose(site, to, language, {
      subject: textOf('mails.passwordReset.subject'),
      paragraphs: [textOf('mails.passwordReset.body', { site: site.name })],
      link: { url, label: textOf('mails.passwordReset.button') },
    });
  },

  verifyEmail: (site: Site, to: string, url: string, language: MailLanguage): MailMessage => {
    const textOf = serverTextsIn(language);
    return compose(site, to, language, {
      subject: textOf('mails.verifyEmail.subject'),
      paragraphs: [textOf('mails.verifyEmail.body', { site: site.name })],
      link: { url, label: textOf('mails.verifyEmail.button') },
    });
  },

  changeEmail: (site: Site, to: string, url: string, language: MailLanguage): MailMessage => {
    const textOf = serverTextsIn(language);
    return compose(site, to, language, {
      subject: textOf('mails.changeEmail.subject'),
      paragraphs: [textOf('mails.changeEmail.body', { site: site.name })],
      link: { url, label: textOf('mails.changeEmail.button') },
    });
  },

  emailChanged: (site: Site, to: string, newEmail: string, language: MailLanguage): MailMessage => {
    const textOf = serverTextsIn(language);
    return compose(site, to, language, {
      subject: textOf('mails.emailChanged.subject'),
      paragraphs: [
        textOf('mails.emailChanged.body', { site: site.name, email: newEmail }),
        textOf('mails.emailChanged.ifNotYou', { loginUrl: `${site.url}/login` }),
      ],
    });
  },

  passwordChanged: (site: Site, to: string, language: MailLanguage): MailMessage => {
    const textOf = serverTextsIn(language);
    return compose(site, to, language, {
      subject: textOf('mails.passwordChanged.subject'),
      paragraphs: [
        textOf('mails.passwordChanged.body', { site: site.name }),
        textOf('mails.passwordChanged.ifNotYou', { loginUrl: `${site.url}/login` }),
      ],
    });
  },
};
