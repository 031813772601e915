/** The messages the instance sends, in its own name: plain text and the same as simple HTML. */
import type { MailMessage } from './mailer';
import { escapeHtml } from '../rendering/escapeHtml';

export interface Site {
  /** `INSTANCE_NAME`. */
  name: string;
  /** Where links start (`PUBLIC_URL`). */
  url: string;
}

/** Paragraphs of text, one of which may be the link; the HTML puts the link on a button-like anchor. */
function compose(site: Site, to: string, subject: string, paragraphs: string[], link?: { url: string; label: string }) {
  const closing = `— ${site.name}`;
  const text = [...paragraphs, ...(link ? [link.url] : []), closing].join('\n\n') + '\n';
  const html = [
    '<!doctype html><html><body style="font-family:sans-serif;line-height:1.5">',
    ...paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`),
    ...(link
      ? [
          `<p><a href="${escapeHtml(link.url)}" style="display:inline-block;padding:10px 16px;background:#2563eb;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(link.label)}</a></p>`,
          `<p style="font-size:13px;color:#555">Or copy this address into your browser: ${escapeHtml(link.url)}</p>`,
        ]
      : []),
    `<p>${escapeHtml(closing)}</p>`,
    '</body></html>',
  ].join('\n');
  return { to, subject: `${subject} — ${site.name}`, text, html };
}

export const mails = {
  passwordReset: (site: Site, to: string, url: string): MailMessage =>
    compose(
      site,
      to,
      'Reset your password',
      [
        `Someone asked to reset the password of your ${site.name} account. To choose a new password, open this link within an hour:`,
      ],
      { url, label: 'Choose a new password' },
    ),

  verifyEmail: (site: Site, to: string, url: string): MailMessage =>
    compose(
      site,
      to,
      'Verify your email address',
      [`Welcome to ${site.name}! Please confirm that this is your address:`],
      {
        url,
        label: 'Verify my address',
      },
    ),

  changeEmail: (site: Site, to: string, url: string): MailMessage =>
    compose(
      site,
      to,
      'Confirm your new email address',
      [
        `Someone asked to use this address for their ${site.name} account. The change takes effect once you open this link:`,
      ],
      { url, label: 'Use this address' },
    ),

  emailChanged: (site: Site, to: string, newEmail: string): MailMessage =>
    compose(site, to, 'Your email address was changed', [
      `The email address of your ${site.name} account is now ${newEmail}. This address no longer receives its messages.`,
      `If you did not make this change, reset your password at ${site.url}/login and contact the instance's team.`,
    ]),

  passwordChanged: (site: Site, to: string): MailMessage =>
    compose(site, to, 'Your password was reset', [
      `The password of your ${site.name} account was just reset with a link sent to this address, and every device was signed out.`,
      `If this was not you, reset it again at ${site.url}/login.`,
    ]),
};
