/**
 * The message catalogues: `messages/<language>/<namespace>.json`, English the source. One file per
 * namespace (a feature's texts), so a feature's texts are changed without touching the others'.
 * Read by the server (and the tests) only: pages get their language's messages compiled, through
 * their props (pageIntl.ts). Read from disk once per process: the catalogues change with a deploy.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { LANGUAGES, type Language } from './languages';

/** A catalogue: namespaces of ICU messages, nested as use-intl reads them (`shell.signIn`). */
export interface Messages {
  [key: string]: string | Messages;
}

/** The catalogues' folder: the server runs from the project's root (dev, build and production alike). */
export const MESSAGES_DIR = path.join(process.cwd(), 'lib/i18n/messages');

function catalogueOf(language: Language): Messages {
  const folder = path.join(MESSAGES_DIR, language);
  const messages: Messages = {};
  for (const file of readdirSync(folder)
    .filter((name) => name.endsWith('.json'))
    .sort())
    messages[file.slice(0, -'.json'.length)] = JSON.parse(readFileSync(path.join(folder, file), 'utf8')) as Messages;
  return messages;
}

let catalogues: Record<Language, Messages> | null = null;

/** Every language's catalogue, read on first use. */
export function cataloguesOf(): Record<Language, Messages> {
  catalogues ??= Object.fromEntries(LANGUAGES.map((language) => [language, catalogueOf(language)])) as Record<
    Language,
    Messages
  >;
  return catalogues;
}

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
