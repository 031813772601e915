/**
 * docs/architecture.md's event table is the one `npm run docs:events` makes from the code: an
 * event, a publisher, a listener or a line of the invalidation table added or taken out shows here.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BEGIN, END, eventTable, invalidationLines, withEventTable } from '../../scripts/eventTable';

const ROOT = join(__dirname, '../..');

describe('the event table of docs/architecture.md', () => {
  it('is the table made from the code (run `npm run docs:events` after changing events)', () => {
    const doc = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
    expect(doc.slice(doc.indexOf(BEGIN), doc.indexOf(END) + END.length)).toBe(eventTable(ROOT));
  });

  it('reads every line of the invalidation table, comments left out, and a line taken out shows', () => {
    const source = [
      'export const INVALIDATION: InvalidationTable = {',
      '  PostEdited: [(e, c) => c.posts.changed(e.postId), (e, c) => e.tagsChanged && c.posts.listsChanged("tag|")],',
      '  Followed: [',
      '    // a comment, with a comma, and [brackets]',
      '    (e, c) => c.homeFeed.followsChanged(e.followerId),',
      '    (e, c) => homePagesOf(c, e.followerId),',
      '  ],',
      '  NotificationsRead: [],',
      '};',
    ].join('\n');
    expect(Object.fromEntries(invalidationLines(source))).toEqual({
      PostEdited: ['posts.changed(postId)', 'tagsChanged && posts.listsChanged("tag|")'],
      Followed: ['homeFeed.followsChanged(followerId)', 'homePagesOf(followerId)'],
      NotificationsRead: [],
    });
    const doc = `before\n${BEGIN}\nold\n${END}\nafter`;
    expect(withEventTable(doc, `${BEGIN}\nnew\n${END}`)).toBe(`before\n${BEGIN}\nnew\n${END}\nafter`);
  });
});
