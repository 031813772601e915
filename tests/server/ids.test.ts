/** Ids (`server/domain/ids.ts`): UUIDv7, in creation order also within one millisecond, never twice. */
import { idFloorAt, isUuid, newId } from '../../server/domain/ids';

it('orders ids by creation, within a millisecond too, and repeats none', () => {
  const ids = Array.from({ length: 20_000 }, newId);
  expect(ids.every(isUuid)).toBe(true);
  expect(ids.every((id) => id[14] === '7' && '89ab'.includes(id[19]))).toBe(true);
  // 20,000 ids take a few milliseconds: many share one.
  expect(new Set(ids.map((id) => id.slice(0, 13))).size).toBeLessThan(ids.length);
  expect([...ids].sort()).toEqual(ids);
  expect(new Set(ids).size).toBe(ids.length);
});

it('starts each millisecond at a random point, so two processes seldom collide', () => {
  const firsts = new Set<string>();
  let last = '';
  for (let i = 0; i < 200_000 && firsts.size < 3; i++) {
    const id = newId();
    if (id.slice(0, 13) !== last.slice(0, 13)) firsts.add(id.slice(14, 23));
    last = id;
  }
  expect(firsts.size).toBe(3);
});

it('puts the millisecond first: idFloorAt is the smallest id of its millisecond', () => {
  const before = Date.now();
  const id = newId();
  expect(idFloorAt(before) <= id).toBe(true);
  expect(idFloorAt(Date.now() + 1) > id).toBe(true);
});
