import type { Reaction } from '../../lib/types';
import { ReaderReactions } from '../../server/cache/readerReactions';
import { newId } from '../../server/domain/ids';

describe("a reader's reactions, kept as words", () => {
  it('answers as a Map would, through sets, changes and deletes of many ids', () => {
    const reactions = new ReaderReactions();
    const expected = new Map<string, Reaction>();
    const ids = Array.from({ length: 300 }, () => newId());
    // Ids that differ only outside the last word share a place in the search: each must be told apart.
    const twins = ids.slice(0, 20).map((id) => `${id.slice(0, 8) === 'ffffffff' ? '0' : 'f'}${id.slice(1)}`);
    // Not UUIDs as the database writes them, one with the last word of a UUID kept here.
    const notUuids = [
      'p001',
      'https://remote.example/notes/1',
      `${ids[2].slice(0, 35)}G`,
      `X${ids[3].slice(1)}`,
      ids[4].toUpperCase(),
    ];
    const all = [...ids, ...twins, ...notUuids];
    all.forEach((id, i) => {
      const reaction: Reaction = i % 3 ? 'like' : 'dislike';
      reactions.set(id, reaction);
      expected.set(id, reaction);
    });
    all.forEach((id, i) => {
      if (i % 4 === 0) {
        reactions.delete(id);
        expected.delete(id);
      } else if (i % 5 === 0) {
        reactions.set(id, 'dislike');
        expected.set(id, 'dislike');
      }
    });
    reactions.delete(newId()); // not there: nothing changes
    expect(reactions.size).toBe(expected.size);
    for (const id of [...all, newId(), 'p002', '']) expect([id, reactions.get(id)]).toEqual([id, expected.get(id)]);
  });

  it('is made from pairs as it is by setting them one by one', () => {
    const pairs = Array.from({ length: 200 }, (_, i): [string, Reaction] => [newId(), i % 7 ? 'like' : 'dislike']);
    pairs.push(['p001', 'like'], [`X${pairs[0][0].slice(1)}`, 'dislike']);
    const made = ReaderReactions.of(pairs);
    const set = new ReaderReactions();
    for (const [id, reaction] of pairs) set.set(id, reaction);
    expect(made.size).toBe(pairs.length);
    for (const [id, reaction] of pairs) expect([id, made.get(id), set.get(id)]).toEqual([id, reaction, reaction]);
    expect(made.get(newId())).toBeUndefined();
  });
});
