/**
 * A profile link's value as HTML, for the client API's `fields[].value` and the actor's
 * `PropertyValue`s alike: an http(s) address a link that opens apart (`rel="me"`, as Mastodon
 * writes it), any other text escaped.
 */
import { linkOf } from '../../lib/profileFields';
import { escapeHtml } from './escapeHtml';

export function fieldHtml(value: string): string {
  const link = linkOf(value);
  const text = escapeHtml(value);
  return link
    ? `<a href="${escapeHtml(link.href)}" target="_blank" rel="nofollow noopener noreferrer me" translate="no">${text}</a>`
    : text;
}
