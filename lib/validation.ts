/**
 * Pure validation rules shared by the client and the server. Each returns the user-facing
 * message of the first broken rule, or null when the value is valid.
 */
import {
  ALT_MAX,
  SPOILER_MAX,
  DESCRIPTION_MAX,
  EMAIL_MAX,
  MESSAGE_MAX,
  PASSWORD_MAX,
  PASSWORD_MIN,
  TAG_MAX,
  TAGS_PER_POST_MAX,
  USERNAME_MAX,
  USERNAME_MIN,
  RESERVED_USERNAMES,
  USERNAME_PATTERN,
  COMMENT_MAX,
} from './limits';
import { tagKey } from './tags';
import { TEXTS } from './texts';

// Tag normalisation lives in ./tags (the page table needs it without the rules below).
export { normalizeTag, normalizeTags, tagKey, tagList } from './tags';

const TAG_PATTERN = /^[\p{L}\p{N}_-]+$/u;
// Deliberately simple: one @, something on each side, a dot in the domain, no spaces.
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The rule a tag breaks, if any: the client says it in the reader's language, the server in English (`tagError`). */
export type TagRuleBreak =
  { rule: 'tagRequired' } | { rule: 'tagPattern' } | { rule: 'tagLowerCaseLength'; max: number };

export function tagRule(tag: string): TagRuleBreak | null {
  if (tag.length === 0 || tag.length > TAG_MAX) return { rule: 'tagRequired' };
  if (!TAG_PATTERN.test(tag)) return { rule: 'tagPattern' };
  // Lower case can be longer: "İ" becomes "i" and a combining dot.
  if (tagKey(tag).length > TAG_MAX) return { rule: 'tagLowerCaseLength', max: TAG_MAX };
  return null;
}

export function tagError(tag: string): string | null {
  const broken = tagRule(tag);
  if (!broken) return null;
  if (broken.rule === 'tagRequired') return TEXTS.tagRequired;
  if (broken.rule === 'tagPattern') return 'Tags may contain only letters, digits, _ and -';
  return `A tag must be at most ${broken.max} characters in lower case`;
}

/** A tag page a viewer may follow from: one tag, one that can be a tag (issue 73). */
export const followable = (tags: readonly string[]) => tags.length === 1 && tagError(tags[0]) === null;

export function tagsError(tags: readonly string[]): string | null {
  if (tags.length === 0) return TEXTS.tagRequired;
  if (tags.length > TAGS_PER_POST_MAX) return `A post can have at most ${TAGS_PER_POST_MAX} tags`;
  for (const tag of tags) {
    const error = tagError(tag);
    if (error) return error;
  }
  return null;
}

export function postMessageError(message: string | undefined | null): string | null {
  if (typeof message !== 'string' || message.trim().length === 0) return TEXTS.messageRequired;
  if (message.length > MESSAGE_MAX) return `Message must be at most ${MESSAGE_MAX} characters`;
  return null;
}

export function altError(alt: string): string | null {
  return alt.length > ALT_MAX ? `Alt text must be at most ${ALT_MAX} characters` : null;
}

export function spoilerError(spoiler: string): string | null {
  return spoiler.length > SPOILER_MAX ? `The content warning must be at most ${SPOILER_MAX} characters` : null;
}

/** The rule a comment breaks, if any: the client says it in the reader's language, the server in English. */
export function commentProblem(message: string | undefined | null): 'empty' | 'tooLong' | null {
  const trimmed = typeof message === 'string' ? message.trim() : '';
  if (trimmed.length === 0) return 'empty';
  if (trimmed.length > COMMENT_MAX) return 'tooLong';
  return null;
}

export function commentMessageError(message: string | undefined | null): string | null {
  const problem = commentProblem(message);
  if (problem === 'empty') return 'Please write a comment';
  if (problem === 'tooLong') return `Comment must be at most ${COMMENT_MAX} characters`;
  return null;
}

// eslint-disable-next-line no-control-regex -- every ASCII character, controls included
const ONLY_ASCII = /^[\x00-\x7f]*$/;

/**
 * Usernames are compatibility-normalised (NFKC): full-width "ａｎｎ" and the ligature "ﬁ" become
 * plain letters, which the ASCII-only pattern then judges, so no two names look alike.
 */
export function normalizeUsername(raw: string): string {
  // ASCII is its own NFKC form, and ICU's normalize is dear even then (every profile read).
  return (ONLY_ASCII.test(raw) ? raw : raw.normalize('NFKC')).trim();
}

/** What uniqueness and lookups compare. */
export function usernameKey(username: string): string {
  const key = normalizeUsername(username).toLowerCase();
  const at = key.indexOf('@');
  if (at < 0 || ONLY_ASCII.test(key)) return key;
  // A person from elsewhere is kept with their host in ASCII (`name@xn--bcher-kva.example`), as
  // URLs write it: `name@bücher.example` is the same person.
  try {
    return `${key.slice(0, at)}@${new URL(`http://${key.slice(at + 1)}`).host}`;
  } catch {
    return key;
  }
}

/**
 * A rule a username, an email or a password breaks: what the client's catalogue needs to say it in
 * the person's language (lib/schemas.ts); the server and the functions below say it in English.
 */
export type RuleBreak =
  | {
      rule:
        | 'usernameRequired'
        | 'usernamePattern'
        | 'usernameReserved'
        | 'emailRequired'
        | 'emailInvalid'
        | 'passwordRequired'
        | 'passwordControl';
    }
  | { rule: 'usernameLength' | 'passwordLength'; min: number; max: number };

export function usernameRule(username: string | undefined | null): RuleBreak | null {
  if (typeof username !== 'string' || username.length === 0) return { rule: 'usernameRequired' };
  if (username.length < USERNAME_MIN || username.length > USERNAME_MAX) {
    return { rule: 'usernameLength', min: USERNAME_MIN, max: USERNAME_MAX };
  }
  if (!USERNAME_PATTERN.test(username)) return { rule: 'usernamePattern' };
  if (RESERVED_USERNAMES.includes(username.toLowerCase())) return { rule: 'usernameReserved' };
  return null;
}

export function emailRule(email: string | undefined | null): RuleBreak | null {
  if (typeof email !== 'string' || email.length === 0) return { rule: 'emailRequired' };
  if (email.length > EMAIL_MAX || !EMAIL_PATTERN.test(email)) return { rule: 'emailInvalid' };
  return null;
}

export function passwordRule(password: string | undefined | null): RuleBreak | null {
  if (typeof password !== 'string' || password.length === 0) return { rule: 'passwordRequired' };
  // eslint-disable-next-line no-control-regex -- control characters are what this refuses
  if (/[\u0000-\u001f\u007f-\u009f]/.test(password)) return { rule: 'passwordControl' };
  if (password.length < PASSWORD_MIN || password.length > PASSWORD_MAX) {
    return { rule: 'passwordLength', min: PASSWORD_MIN, max: PASSWORD_MAX };
  }
  return null;
}

/** A broken rule in English (the API's messages); `field` names the password ("New password"). */
function englishOf(broken: RuleBreak | null, field = 'Password'): string | null {
  if (!broken) return null;
  switch (broken.rule) {
    case 'usernameRequired':
      return 'Username is required';
    case 'usernameLength':
      return `Username must be ${broken.min}–${broken.max} characters`;
    case 'usernamePattern':
      return 'Username may contain only letters, digits, _ and .';
    case 'usernameReserved':
      return 'This username is reserved';
    case 'emailRequired':
      return 'Email is required';
    case 'emailInvalid':
      return 'Email must be a valid address';
    case 'passwordRequired':
      return `${field} is required`;
    case 'passwordControl':
      return `${field} must not contain control characters`;
    case 'passwordLength':
      return `${field} must be ${broken.min}–${broken.max} characters`;
  }
}

export const usernameError = (username: string | undefined | null): string | null => englishOf(usernameRule(username));

export const emailError = (email: string | undefined | null): string | null => englishOf(emailRule(email));

export const passwordError = (password: string | undefined | null, field = 'Password'): string | null =>
  englishOf(passwordRule(password), field);

export function descriptionError(description: string | undefined | null): string | null {
  if (description == null) return null;
  if (description.length > DESCRIPTION_MAX) return `Description must be at most ${DESCRIPTION_MAX} characters`;
  return null;
}
