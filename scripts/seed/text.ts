/** Words for usernames, tags, posts and comments: plausible text, made from the seeded Rng. */
import type { Rng } from './random';

export const FIRST_NAMES = [
  'ada',
  'alan',
  'amara',
  'ana',
  'arjun',
  'bea',
  'ben',
  'carla',
  'chen',
  'dara',
  'diego',
  'elif',
  'emma',
  'farah',
  'felix',
  'grace',
  'hana',
  'hugo',
  'ines',
  'ivan',
  'jade',
  'jonas',
  'kai',
  'kemal',
  'lea',
  'leo',
  'lina',
  'luca',
  'maya',
  'mia',
  'nadia',
  'noah',
  'omar',
  'olga',
  'pablo',
  'priya',
  'quinn',
  'rafa',
  'rosa',
  'sami',
  'sara',
  'theo',
  'uma',
  'vera',
  'wen',
  'xavi',
  'yara',
  'yusuf',
  'zoe',
  'zane',
] as const;

const TOPICS = [
  'sunset',
  'coffee',
  'hiking',
  'cats',
  'dogs',
  'travel',
  'food',
  'music',
  'art',
  'books',
  'running',
  'cycling',
  'photo',
  'garden',
  'city',
  'beach',
  'mountains',
  'rain',
  'snow',
  'design',
  'code',
  'gaming',
  'film',
  'street',
  'night',
  'morning',
  'friends',
  'family',
  'weekend',
  'retro',
  'vinyl',
  'baking',
  'tea',
  'forest',
  'lake',
  'river',
  'birds',
  'flowers',
  'autumn',
  'spring',
  'summer',
  'winter',
  'sky',
  'clouds',
  'stars',
  'moon',
  'ocean',
  'sailing',
  'climbing',
  'yoga',
] as const;
const QUALIFIERS = ['', 'daily', 'life', 'lovers', 'vibes', 'club', 'time', 'mood', 'shots', 'diary'] as const;

/**
 * `count` distinct tag names, most "natural" first (plain topics, then topic+qualifier): rank 0
 * becomes the most common tag under the Zipf sampler.
 */
export function tagNames(count: number): string[] {
  const names: string[] = [];
  for (let round = 0; names.length < count; round++) {
    for (const q of QUALIFIERS) {
      for (const topic of TOPICS) {
        const name = round === 0 ? `${topic}${q}` : `${topic}${q}${round}`;
        if (names.length < count) names.push(name);
      }
    }
  }
  return names;
}

/** The author's spelling: mostly lower case, sometimes capitalised, as people type tags. */
export function authorSpelling(rng: Rng, tag: string): string {
  const r = rng.next();
  if (r < 0.8) return tag;
  if (r < 0.95) return tag[0].toUpperCase() + tag.slice(1);
  return tag.toUpperCase();
}

const OPENERS = [
  'Just',
  'Finally',
  'Today I',
  'Look at this:',
  "Can't believe I",
  'Another day,',
  'Quick one:',
  'So',
  'Weekend plan:',
  'Throwback:',
  'New favourite:',
  'Honestly,',
] as const;
const VERBS = [
  'found',
  'made',
  'saw',
  'tried',
  'shared',
  'painted',
  'shot',
  'visited',
  'cooked',
  'fixed',
  'finished',
  'started',
] as const;
const ADJECTIVES = [
  'quiet',
  'bright',
  'tiny',
  'huge',
  'cozy',
  'strange',
  'perfect',
  'golden',
  'misty',
  'wild',
  'lovely',
  'old',
] as const;
const NOUNS = [
  'corner',
  'café',
  'trail',
  'window',
  'garden',
  'bridge',
  'street',
  'record',
  'recipe',
  'sketch',
  'harbour',
  'rooftop',
  'bookshop',
  'market',
] as const;
const CLOSERS = [
  '',
  '',
  ' 🙂',
  ' Worth it.',
  ' More soon.',
  ' Who else?',
  ' Highly recommend.',
  ' 10/10.',
  ' What do you think?',
  ' ✨',
] as const;

export function postMessage(rng: Rng): string {
  return (
    `${rng.pick(OPENERS)} ${rng.pick(VERBS)} a ${rng.pick(ADJECTIVES)} ${rng.pick(NOUNS)}` +
    ` near the ${rng.pick(ADJECTIVES)} ${rng.pick(NOUNS)}.${rng.pick(CLOSERS)}`
  );
}

const REPLIES = [
  'Love this!',
  'Wow.',
  'Where is this?',
  'So good 😍',
  'Great shot!',
  'Haha, same.',
  'Need to try this.',
  'Beautiful colours.',
  'Take me there.',
  'This made my day.',
  'Agreed!',
  'Interesting angle.',
  'Nice one',
  'How did you do that?',
  'Saving this for later.',
] as const;

export function commentMessage(rng: Rng): string {
  const reply = rng.pick(REPLIES);
  return rng.next() < 0.3 ? `${reply} ${rng.pick(REPLIES)}` : reply;
}

const BIOS = [
  'Photos, coffee and long walks.',
  'Making things with code and paper.',
  'Here for the sunsets.',
  'Amateur baker, professional taster.',
  'Trails on weekends, code on weekdays.',
  'Collecting records and moments.',
  'Cat person. Dog person. Both.',
  'Painting small things.',
  '',
] as const;

export const bio = (rng: Rng): string => rng.pick(BIOS);
