/**
 * The message catalogues, one JSON file per language, English the source. Read by the server (and
 * the tests) only: pages get their language's messages compiled, through their props (pageIntl.ts).
 */
import ar from './messages/ar.json';
import de from './messages/de.json';
import en from './messages/en.json';
import es from './messages/es.json';
import fr from './messages/fr.json';
import ja from './messages/ja.json';
import type { Language } from './languages';

/** A catalogue: namespaces of ICU messages, nested as use-intl reads them (`shell.signIn`). */
export interface Messages {
  [key: string]: string | Messages;
}

export const CATALOGUES: Record<Language, Messages> = { en, es, de, fr, ja, ar };

/** Every message of a catalogue by its dotted key. */
export function flatten(messages: Messages, prefix = ''): Map<string, string> {
  const flat = new Map<string, string>();
  for (const [key, value] of Object.entries(messages)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') flat.set(path, value);
    else for (const [inner, text] of flatten(value, path)) flat.set(inner, text);
  }
  return flat;
}
