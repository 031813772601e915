import { findMentions, splitMentions } from '../../lib/mentions';

describe('mentions', () => {
  it('finds each @username once, as typed, in order', () => {
    expect(findMentions('@ann and @Bob.smith, then @ANN again and @bob.smith')).toEqual(['ann', 'Bob.smith']);
  });

  it('leaves out what is not a mention: emails, too short or too long names, a bare @', () => {
    expect(findMentions('write to ann@example.com or @ab or @ or @ @ ')).toEqual([]);
    expect(findMentions(`@${'a'.repeat(31)} but @${'b'.repeat(30)}`)).toEqual(['b'.repeat(30)]);
    // Full-width letters are not in the username rule.
    expect(findMentions('@ａｎｎ')).toEqual([]);
  });

  it('ends a name before trailing dots and at any other character', () => {
    expect(findMentions('Hi @ann. Ask @bob_1... or (@carol)!')).toEqual(['ann', 'bob_1', 'carol']);
    expect(findMentions('@dan-the-man')).toEqual(['dan']);
  });

  it('splits text into plain runs and mentions that join back to the text', () => {
    const text = 'Hi @ann. Mail a@b.com, @bob!';
    const parts = splitMentions(text);
    expect(parts).toEqual([
      { text: 'Hi ' },
      { mention: 'ann' },
      { text: '. Mail a@b.com, ' },
      { mention: 'bob' },
      { text: '!' },
    ]);
    expect(parts.map((part) => ('mention' in part ? `@${part.mention}` : part.text)).join('')).toBe(text);
    expect(splitMentions('@ann')).toEqual([{ mention: 'ann' }]);
    expect(splitMentions('no one')).toEqual([{ text: 'no one' }]);
    expect(splitMentions('')).toEqual([]);
  });
});
