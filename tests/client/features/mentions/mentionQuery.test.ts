import { insertMention, mentionQueryAt } from '../../../../features/mentions/lib/mentionQuery';

// What the mention list reads at the caret (issue 68, item 31): the scanner's boundaries.
describe('mentionQueryAt', () => {
  const at = (marked: string) => mentionQueryAt(marked.replace('|', ''), marked.indexOf('|'));

  it('finds the @name being typed, with at least one character after the @', () => {
    expect(at('hi @al|')).toEqual({ start: 3, end: 6, query: 'al' });
    expect(at('@a|')).toEqual({ start: 0, end: 2, query: 'a' });
    expect(at('(@al|) x')).toEqual({ start: 1, end: 4, query: 'al' });
    expect(at('hi @|')).toBeNull();
    expect(at('hi @al |')).toBeNull();
  });

  it('takes a remote handle being typed, and the whole name when the caret is inside it', () => {
    expect(at('@bob@far.ex|')).toEqual({ start: 0, end: 11, query: 'bob@far.ex' });
    expect(at('@bob@|')).toEqual({ start: 0, end: 5, query: 'bob@' });
    expect(at('@al|ice and')).toEqual({ start: 0, end: 6, query: 'al' });
  });

  it('is no mention after a word character, =, / or @, nor with characters a name cannot have', () => {
    for (const text of ['ann@ex|', 'x=@al|', 'a/@al|', '@@al|', '@a@b@c|', '@é|', `@${'a'.repeat(101)}|`])
      expect(at(text), text).toBeNull();
  });
});

describe('insertMention', () => {
  it('puts @name and one space in place of what was typed, the caret after them', () => {
    const text = 'hi @al';
    expect(insertMention(text, { start: 3, end: 6, query: 'al' }, 'alice')).toEqual({ text: 'hi @alice ', caret: 10 });
    expect(insertMention('@al x', { start: 0, end: 3, query: 'al' }, 'alice')).toEqual({ text: '@alice x', caret: 7 });
    expect(insertMention('@bob@f', { start: 0, end: 6, query: 'bob@f' }, 'bob@far.example')).toEqual({
      text: '@bob@far.example ',
      caret: 17,
    });
  });
});
