import { mostFollowed } from '../../../server/posts/homeFeed/mostFollowed';

// Person n's id sorts as n does (ids are compared newest first: the higher number wins a tie).
const idOf = (n: number) => `id-${String(n).padStart(3, '0')}`;
const lists = (...of: number[][]) => of.map((l) => Int32Array.from(l));

describe('mostFollowed (Explore: people followed by those the reader follows)', () => {
  it('ranks by how many lists hold a person, then by id, newest first', () => {
    const followed = lists([1, 2, 3], [2, 3, 4], [3, 5]);
    expect(mostFollowed(followed, 10, () => false, idOf, 10)).toEqual([3, 2, 5, 4, 1].map(idOf));
  });

  it('leaves out whom it is told to (the reader, those they follow) and stops at the number wanted', () => {
    const followed = lists([1, 2, 3], [2, 3, 4], [3, 5]);
    expect(mostFollowed(followed, 10, (n) => n === 3, idOf, 2)).toEqual([2, 5].map(idOf));
    expect(mostFollowed(followed, 10, (n) => n === 3, idOf, 3)).toEqual([2, 5, 4].map(idOf));
  });

  it('takes the newest of a tie at the last place wanted, however many share it', () => {
    const followed = lists([9], [9, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(mostFollowed(followed, 10, () => false, idOf, 3)).toEqual([9, 8, 7].map(idOf));
  });

  it('answers nothing for no lists, or lists of no one', () => {
    expect(mostFollowed([], 10, () => false, idOf, 5)).toEqual([]);
    expect(mostFollowed(lists([], []), 10, () => false, idOf, 5)).toEqual([]);
    expect(mostFollowed(lists([1, 2]), 10, () => true, idOf, 5)).toEqual([]);
  });
});
