import { inWords, waitInWords } from '../../lib/retryAfter';

describe('inWords (issue 68, item 11)', () => {
  it.each([
    [0, 'in a moment'],
    [1, 'in a moment'],
    [30, 'in 30 seconds'],
    [44, 'in 44 seconds'],
    [45, 'in about a minute'],
    [89, 'in about a minute'],
    [90, 'in 2 minutes'],
    [120, 'in 2 minutes'],
    [900, 'in 15 minutes'],
    [44 * 60, 'in 44 minutes'],
    [45 * 60, 'in about an hour'],
    [3596, 'in about an hour'],
    [3600, 'in about an hour'],
    [2 * 3600, 'in about 2 hours'],
    [21 * 3600, 'in about 21 hours'],
    [24 * 3600, 'in about a day'],
    [3 * 86400, 'in about 3 days'],
  ])('%i seconds is "%s"', (seconds, words) => {
    expect(inWords(seconds)).toBe(words);
  });

  it('rounds a fraction of a second up and never goes below a moment', () => {
    expect(inWords(29.2)).toBe('in 30 seconds');
    expect(inWords(-5)).toBe('in a moment');
  });
});

describe('waitInWords', () => {
  it("rewrites the server's wait in seconds", () => {
    expect(waitInWords('Too many requests, try again in 3596 seconds')).toBe(
      'Too many requests, try again in about an hour',
    );
    expect(waitInWords('Too many wrong codes, try again in 120 seconds')).toBe(
      'Too many wrong codes, try again in 2 minutes',
    );
  });

  it('leaves other messages alone', () => {
    expect(waitInWords('Invalid password')).toBe('Invalid password');
    expect(waitInWords('This server holds as many streams as it can; try again in a minute')).toBe(
      'This server holds as many streams as it can; try again in a minute',
    );
  });
});
