/**
 * Mastodon's `focalPoint` read from an activity as sent (server/federation/focalPoint.ts): the
 * crop of the Note's image it names, '' (the centre) for anything else.
 */
import { sentFocalCrop } from '../../server/federation/focalPoint';

const NOTE = 'https://elsewhere.example/statuses/1';
const IMAGE = 'https://elsewhere.example/files/1.png';
const create = (attachment: unknown, id = NOTE) => ({ type: 'Create', object: { id, type: 'Note', attachment } });

describe('sentFocalCrop', () => {
  it('reads [x, y] (y up) of the image the Note names, embedded or the Note itself', () => {
    expect(sentFocalCrop(create([{ url: IMAGE, focalPoint: [0.5, -0.25] }]), NOTE, IMAGE)).toBe('0.75,0.625');
    expect(sentFocalCrop({ id: NOTE, attachment: { url: IMAGE, focalPoint: [-1, 1] } }, NOTE, IMAGE)).toBe('0,0');
    // A Link as the url (Pleroma), and a list of addresses.
    expect(sentFocalCrop(create([{ url: { type: 'Link', href: IMAGE }, focalPoint: [1, 0] }]), NOTE, IMAGE)).toBe(
      '1,0.5',
    );
    expect(sentFocalCrop(create([{ url: ['https://x.example/a', IMAGE], focalPoint: [0, 1] }]), NOTE, IMAGE)).toBe(
      '0.5,0',
    );
    expect(sentFocalCrop(create([{ url: IMAGE, focalPoint: [0, 0] }]), NOTE, IMAGE)).toBe('');
  });

  it('the focal point of the image kept, not of another attachment', () => {
    const two = [
      { url: 'https://elsewhere.example/files/0.png', focalPoint: [1, 1] },
      { url: IMAGE, focalPoint: [-1, -1] },
    ];
    expect(sentFocalCrop(create(two), NOTE, IMAGE)).toBe('0,1');
  });

  it.each([
    ['out of range', create([{ url: IMAGE, focalPoint: [1.5, 0] }])],
    ['not two numbers', create([{ url: IMAGE, focalPoint: [0.5] }])],
    ['text', create([{ url: IMAGE, focalPoint: '0.5,0.5' }])],
    ['none', create([{ url: IMAGE }])],
    ['another Note', create([{ url: IMAGE, focalPoint: [1, 1] }], 'https://elsewhere.example/statuses/2')],
    ['another image', create([{ url: 'https://elsewhere.example/files/9.png', focalPoint: [1, 1] }])],
    ['no JSON', null],
  ])('%s: the centre', (_name, sent) => {
    expect(sentFocalCrop(sent, NOTE, IMAGE)).toBe('');
  });
});
