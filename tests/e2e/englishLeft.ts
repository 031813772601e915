/**
 * English left on a page rendered in another language (issue 75): the interface's texts and labels
 * outside user content (what people wrote keeps its own language, in `dir="auto"` and `bdi` elements), with
 * English's commonest function words as the tell — words that are not words of Spanish, German,
 * French, and that Japanese and Arabic do not write in Latin letters.
 */
import type { Page } from 'playwright-core';

const ENGLISH_WORDS = [
  'the',
  'your',
  'you',
  'and',
  'with',
  'this',
  'that',
  'have',
  'are',
  'is',
  'not',
  'yet',
  'here',
  'what',
  'who',
  'from',
  'for',
  'to',
  'of',
  'by',
  'been',
  'will',
  'can',
  'there',
  'their',
];
const TELL = new RegExp(`(^|[^\\p{L}])(${ENGLISH_WORDS.join('|')})(?=$|[^\\p{L}])`, 'iu');

/** Each text and label of the page's interface that reads as English, with where it is. */
export async function englishLeft(page: Page): Promise<string[]> {
  const texts = await page.evaluate(() => {
    const found: string[] = [];
    const userContent = (element: Element) => element.closest('[dir="auto"], bdi') !== null;
    const visible = (element: Element) => {
      const style = getComputedStyle(element);
      return style.display !== 'none' && style.visibility !== 'hidden';
    };
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const element = node.parentElement;
      const text = node.textContent?.trim();
      // A form's field holds what the person typed.
      if (!element || !text || userContent(element) || element.closest('script,style,noscript,textarea')) continue;
      if (visible(element)) found.push(`${element.tagName.toLowerCase()}: ${text}`);
    }
    // Not an image's alt text: it is its author's, or names the post by its message (people's words).
    for (const element of document.querySelectorAll('[aria-label],[title],[placeholder]')) {
      if (userContent(element)) continue;
      for (const name of ['aria-label', 'title', 'placeholder']) {
        const value = element.getAttribute(name)?.trim();
        if (value) found.push(`${element.tagName.toLowerCase()}[${name}]: ${value}`);
      }
    }
    found.push(`title: ${document.title}`);
    return found;
  });
  return texts.filter((text) => TELL.test(text.slice(text.indexOf(': ') + 2)));
}
