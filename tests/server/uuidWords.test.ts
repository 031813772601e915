import { newId } from '../../server/domain/ids';
import { UUID_WORDS, hasUuidShape, uuidOfWords, uuidWordsAt } from '../../server/domain/uuidWords';

describe('the UUID ↔ words codec', () => {
  it('gives back every id it parses, and orders words as the ids order', () => {
    const ids = [...Array.from({ length: 200 }, () => newId()), '00000000-0000-0000-0000-000000000000'];
    ids.push('ffffffff-ffff-ffff-ffff-ffffffffffff');
    const words = new Uint32Array(ids.length * UUID_WORDS);
    ids.forEach((id, i) => expect(uuidWordsAt(id, 0, words, i * UUID_WORDS)).toBe(true));
    ids.forEach((id, i) => expect(uuidOfWords(words, i * UUID_WORDS)).toBe(id));
    const byWords = ids
      .map((_, i) => i)
      .sort((a, b) => {
        for (let w = 0; w < UUID_WORDS; w += 1) {
          const d = words[a * UUID_WORDS + w] - words[b * UUID_WORDS + w];
          if (d !== 0) return d;
        }
        return 0;
      })
      .map((i) => ids[i]);
    expect(byWords).toEqual([...ids].sort());
  });

  it('parses an id inside a longer text at its offset', () => {
    const id = newId();
    const into = new Uint32Array(UUID_WORDS);
    expect(uuidWordsAt(`xx${id}yy`, 2, into, 0)).toBe(true);
    expect(uuidOfWords(into, 0)).toBe(id);
  });

  it('refuses what newId() never writes: capitals, other digits, dashes elsewhere, short texts', () => {
    const id = newId();
    const into = new Uint32Array(UUID_WORDS);
    for (const other of [
      id.toUpperCase(),
      `${id.slice(0, 35)}g`,
      `${id.slice(0, 8)}x${id.slice(9)}`,
      id.replaceAll('-', ''),
      id.slice(0, 35),
      `-${id.slice(1)}`,
    ])
      expect(uuidWordsAt(other, 0, into, 0), other).toBe(false);
    expect(hasUuidShape(id)).toBe(true);
    expect(hasUuidShape(`${id.slice(0, 8)}x${id.slice(9)}`)).toBe(false);
  });
});
