import { renderHook } from '@testing-library/react';
import { useScrollLock } from '../../../hooks/useScrollLock';

const desktopAgent = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/140.0 Safari/537.36';
const mobileAgent = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148';

function device(width: number, agent: string) {
  Object.defineProperty(window, 'innerWidth', { value: width, configurable: true });
  Object.defineProperty(window.navigator, 'userAgent', { value: agent, configurable: true });
}

describe('useScrollLock', () => {
  it('hides body overflow and adds 17px right padding on desktop, restoring both on release', () => {
    device(1280, desktopAgent);
    document.body.style.overflow = 'auto';
    document.body.style.paddingRight = '3px';
    const { rerender, unmount } = renderHook(({ locked }) => useScrollLock(locked), { initialProps: { locked: true } });
    expect(document.body.style.overflow).toBe('hidden');
    expect(document.body.style.paddingRight).toBe('17px');
    rerender({ locked: false });
    expect(document.body.style.overflow).toBe('auto');
    expect(document.body.style.paddingRight).toBe('3px');
    unmount();
  });

  it('adds no padding at 600px wide or less', () => {
    device(600, desktopAgent);
    const { unmount } = renderHook(() => useScrollLock(true));
    expect(document.body.style.overflow).toBe('hidden');
    expect(document.body.style.paddingRight).toBe('');
    unmount();
    expect(document.body.style.overflow).toBe('');
  });

  it('adds no padding for a mobile user agent, however wide', () => {
    device(1024, mobileAgent);
    const { unmount } = renderHook(() => useScrollLock(true));
    expect(document.body.style.overflow).toBe('hidden');
    expect(document.body.style.paddingRight).toBe('');
    unmount();
  });

  it('does nothing while not locked', () => {
    device(1280, desktopAgent);
    renderHook(() => useScrollLock(false));
    expect(document.body.style.overflow).toBe('');
  });
});
