import { fireEvent, screen } from '@testing-library/react';
import { PostImage } from '../../../../components/posts/PostImage';
import { renderWithProviders } from '../../support/renderWithProviders';

// A real 1×1 thumbhash, so the placeholder exists and the fade applies.
const info = { width: 900, height: 600, thumbhash: 'YJqGPQw7sFlslqhFafSE+Q6oJ1h2iHB2Rw==', srcset: '/a-540.webp 540w, /a-1080.webp 1080w' };

describe('PostImage', () => {
  it('fades an ordinary image in over its placeholder once it has loaded', () => {
    renderWithProviders(<PostImage src="/a.jpg" info={info} alt="A lake" />);
    const img = screen.getByRole('img', { name: 'A lake' });
    expect(img).toHaveAttribute('loading', 'lazy');
    expect(img).toHaveStyle({ opacity: '0' });
    expect(img.parentElement!.style.backgroundImage).toMatch(/^url\("?data:image\/png;base64,/);
    fireEvent.load(img);
    expect(img).toHaveStyle({ opacity: '1' });
  });

  it('paints the priority image at once, eagerly and with high fetch priority', () => {
    renderWithProviders(<PostImage src="/a.jpg" info={info} alt="A lake" priority />);
    const img = screen.getByRole('img', { name: 'A lake' });
    expect(img).toHaveStyle({ opacity: '1' });
    expect(img).toHaveAttribute('loading', 'eager');
    expect(img).toHaveAttribute('fetchpriority', 'high');
  });
});
