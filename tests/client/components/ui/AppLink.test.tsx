import { fireEvent, screen } from '@testing-library/react';
import { AppLink } from '../../../../components/ui/AppLink';
import { renderWithProviders } from '../../support/renderWithProviders';
import { router } from '../../support/router';

/**
 * Clicks like a mouse and says whether the link handled the click itself (prevented the browser's
 * navigation); the browser's own navigation is then cancelled, since jsdom cannot load documents.
 */
function handledClick(link: HTMLElement, init: MouseEventInit = {}): boolean {
  let handled = false;
  const record = (event: Event) => {
    handled = event.defaultPrevented;
    event.preventDefault();
  };
  window.addEventListener('click', record);
  link.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, button: 0, ...init }));
  window.removeEventListener('click', record);
  return handled;
}

describe('AppLink', () => {
  beforeEach(() => router.prefetch.mockClear());

  it('is a plain link in the HTML, and a plain click is a client-side navigation that scrolls to the top', () => {
    renderWithProviders(<AppLink href="/post/42#comments">Comments</AppLink>);
    const link = screen.getByRole('link', { name: 'Comments' });
    expect(link).toHaveAttribute('href', '/post/42#comments');
    expect(handledClick(link)).toBe(true);
    expect(router.push).toHaveBeenCalledWith('/post/42#comments', undefined, { scroll: true });
  });

  it('replaces the history entry when asked, and keeps the scroll position when asked', () => {
    renderWithProviders(
      <AppLink href="/home" replace scroll={false}>
        Home
      </AppLink>,
    );
    fireEvent.click(screen.getByRole('link', { name: 'Home' }));
    expect(router.replace).toHaveBeenCalledWith('/home', undefined, { scroll: false });
    expect(router.push).not.toHaveBeenCalled();
  });

  it('leaves a modified click, another button, a download, another target and another site to the browser', () => {
    renderWithProviders(
      <>
        <AppLink href="/home">Home</AppLink>
        <AppLink href="/home" target="_blank">
          New tab
        </AppLink>
        <AppLink href="/export.zip" download>
          Download
        </AppLink>
        <AppLink href="https://example.com/">Elsewhere</AppLink>
        <AppLink href="//example.com/">Protocol-relative</AppLink>
      </>,
    );
    const home = screen.getByRole('link', { name: 'Home' });
    for (const init of [{ metaKey: true }, { ctrlKey: true }, { shiftKey: true }, { altKey: true }, { button: 1 }]) {
      expect(handledClick(home, init), JSON.stringify(init)).toBe(false);
    }
    for (const name of ['New tab', 'Download', 'Elsewhere', 'Protocol-relative']) {
      expect(handledClick(screen.getByRole('link', { name })), name).toBe(false);
    }
    // The same link, clicked plainly, is handled: the cases above differ only in what they name.
    expect(handledClick(home)).toBe(true);
    expect(router.push).toHaveBeenCalledTimes(1);
  });

  it("runs the caller's onClick first, and does not navigate when it prevented the default", () => {
    const calls: string[] = [];
    renderWithProviders(
      <>
        <AppLink href="/home" onClick={() => calls.push('close menu')}>
          Home
        </AppLink>
        <AppLink href="/settings" onClick={(event) => event.preventDefault()}>
          Settings
        </AppLink>
      </>,
    );
    fireEvent.click(screen.getByRole('link', { name: 'Home' }));
    expect(calls).toEqual(['close menu']);
    expect(router.push).toHaveBeenCalledTimes(1);
    fireEvent.click(screen.getByRole('link', { name: 'Settings' }));
    expect(router.push).toHaveBeenCalledTimes(1);
  });

  it('prefetches the page on hover or touch, never on render, and never another site', () => {
    renderWithProviders(
      <>
        <AppLink href="/tagged/sea">Sea</AppLink>
        <AppLink href="https://example.com/">Elsewhere</AppLink>
      </>,
    );
    expect(router.prefetch).not.toHaveBeenCalled();
    fireEvent.mouseEnter(screen.getByRole('link', { name: 'Sea' }));
    fireEvent.touchStart(screen.getByRole('link', { name: 'Sea' }));
    fireEvent.mouseEnter(screen.getByRole('link', { name: 'Elsewhere' }));
    expect(router.prefetch.mock.calls).toEqual([['/tagged/sea'], ['/tagged/sea']]);
  });
});
