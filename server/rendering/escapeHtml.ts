/** The one HTML escape of the server's own HTML (client-API content, ActivityPub objects, mails, the consent page). */
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text as HTML text or a quoted attribute's value: the five characters HTML gives meaning escaped. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ENTITIES[c]);
