import { fireEvent, screen, waitFor } from '@testing-library/react';
import { PostImage } from '../../../../../features/posts/components/PostImage';
import { renderWithProviders } from '../../../support/renderWithProviders';

// A real 1×1 thumbhash, so the placeholder exists and the fade applies.
const info = {
  width: 900,
  height: 600,
  thumbhash: 'YJqGPQw7sFlslqhFafSE+Q6oJ1h2iHB2Rw==',
  srcset: '/a-540.webp 540w, /a-1080.webp 1080w',
};

describe('PostImage', () => {
  it('fades an ordinary image in over its placeholder once it has loaded', async () => {
    renderWithProviders(<PostImage src="/a.jpg" info={info} alt="A lake" />);
    const img = screen.getByRole('img', { name: 'A lake' });
    expect(img).toHaveAttribute('loading', 'lazy');
    expect(img).toHaveStyle({ opacity: '0' });
    // The placeholder is decoded in a task after the render, not during it.
    expect(img.parentElement!.style.backgroundImage).toBe('');
    await waitFor(() => expect(img.parentElement!.style.backgroundImage).toMatch(/^url\("?data:image\/png;base64,/));
    fireEvent.load(img);
    expect(img).toHaveStyle({ opacity: '1' });
  });

  it('decodes no placeholder for an image that has already arrived', async () => {
    const complete = vi.spyOn(HTMLImageElement.prototype, 'complete', 'get').mockReturnValue(true);
    const width = vi.spyOn(HTMLImageElement.prototype, 'naturalWidth', 'get').mockReturnValue(900);
    try {
      renderWithProviders(<PostImage src="/a.jpg" info={info} alt="A lake" />);
      const img = screen.getByRole('img', { name: 'A lake' });
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(img.parentElement!.style.backgroundImage).toBe('');
      expect(img).toHaveStyle({ opacity: '1' });
    } finally {
      complete.mockRestore();
      width.mockRestore();
    }
  });

  it('paints the priority image at once, eagerly and with high fetch priority', () => {
    renderWithProviders(<PostImage src="/a.jpg" info={info} alt="A lake" priority />);
    const img = screen.getByRole('img', { name: 'A lake' });
    expect(img).toHaveStyle({ opacity: '1' });
    expect(img).toHaveAttribute('loading', 'eager');
    expect(img).toHaveAttribute('fetchpriority', 'high');
  });
});
