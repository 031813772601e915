import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import styled from 'styled-components';
import { useTranslations } from 'use-intl/react';
import { thumbHashToDataURL } from 'thumbhash';
import { POST_IMAGE_SIZES } from '../../../lib/firstLoad';
import { coverScale, feedRatio, scaledSizes } from '../../../lib/photoBox';
import { type PhotoCrop, cropStyle } from '../../../lib/photoCrop';
import type { ImageInfo } from '../../../lib/types';
import { appTheme } from '../../../themes';
import { overImage } from '../../../themes/fixed';
import { useAlwaysShowSensitive } from '../../../hooks/useSensitiveMedia';

/** Decodes a base64 thumbhash into a tiny data URL shown while the image loads. */
export function thumbhashDataUrl(thumbhash: string | null | undefined): string | null {
  if (!thumbhash) return null;
  try {
    const binary = atob(thumbhash);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return thumbHashToDataURL(bytes);
  } catch {
    return null;
  }
}

const Frame = styled.div<{ $ratio: string }>`
  position: relative;
  width: 100%;
  aspect-ratio: ${({ $ratio }) => $ratio};
  overflow: hidden;
  background-color: ${appTheme.color.skeleton};
  background-size: cover;
  background-position: center;
  img {
    width: 100%;
    height: 100%;
    object-fit: cover;
    transition: opacity 0.3s ease;
  }
`;

/** The full view is its own chunk: only the post page offers it, and few viewers open it. */
const PhotoViewer = lazy(() => import('./PhotoViewer'));

/** The post page's photo: whole, at its own ratio, centred on the card. */
const WholeFrame = styled.div`
  display: flex;
  justify-content: center;
  background-color: ${appTheme.color.surfaceRaised};
`;

/** Opens the full view. Sized from the stored dimensions, so nothing moves when the image arrives. */
const OpenButton = styled.button`
  display: block;
  position: relative;
  padding: 0;
  border: none;
  background-color: ${appTheme.color.skeleton};
  background-size: cover;
  cursor: zoom-in;
  img {
    display: block;
    width: 100%;
    height: auto;
    object-fit: contain;
    transition: opacity 0.3s ease;
  }
  &:focus-visible { outline: 3px solid ${appTheme.color.focus}; outline-offset: -3px; }
`;

/** The post page's photo is at most this share of the window's height (a tall one stays on screen). */
const WHOLE_MAX_VH = 75;

/** Never wider than the column, the stored image, or what keeps its height within the window. */
const wholeWidth = (info: ImageInfo) =>
  `min(100%, ${info.width}px, calc(${WHOLE_MAX_VH}vh * ${info.width / info.height}))`;

/** A sensitive image's stand-in: its thumbhash, blurred, with the content warning over it. */
const Cover = styled.div`
  position: absolute;
  inset: 0;
  display: grid;
  place-content: center;
  justify-items: center;
  gap: 10px;
  padding: 16px;
  text-align: center;
  color: ${overImage.text};
  background-color: ${appTheme.color.skeleton};
  background-size: cover;
  background-position: center;
  .blur {
    position: absolute;
    inset: -20px;
    background: inherit;
    filter: blur(18px);
  }
  p, button { position: relative; margin: 0; }
  p { font-weight: 700; text-shadow: 0 1px 3px ${overImage.textShadow}; overflow-wrap: anywhere; }
  button {
    padding: 6px 16px;
    border-radius: ${appTheme.radius.pill};
    border: 1px solid ${overImage.text};
    background: ${overImage.button};
    color: ${overImage.text};
    font: inherit;
    font-weight: 600;
    cursor: pointer;
    &:focus-visible { outline: 2px solid ${appTheme.color.focus}; outline-offset: 2px; }
  }
`;

interface PostImageProps {
  src: string;
  info: ImageInfo | null;
  alt: string;
  /** CSS `sizes` for picking a srcset candidate. */
  sizes?: string;
  /** Square crop (grids) instead of the image's own shape. */
  square?: boolean;
  priority?: boolean;
  /** Shown blurred behind `spoiler` until the viewer asks for it. */
  sensitive?: boolean;
  spoiler?: string;
  /** False where the image sits inside a link (grids): no Show button there, the post page has it. */
  revealable?: boolean;
  /** The post page: the whole photo (no crop), a button that opens the full view. */
  whole?: boolean;
  /** Where the box crops the photo (the author's focal point), or the whole photo letterboxed. */
  crop?: PhotoCrop;
  /** An album's box (width / height), the same for all its photos, instead of this photo's own. */
  boxRatio?: number;
  /** Fetch it now though it is not the page's first image (an album's next photo). */
  eager?: boolean;
  /** With `whole`: what the button does instead of opening this photo's own full view (an album's). */
  onOpen?: () => void;
  /** An album shows all its photos once one is asked for: the album holds the choice. */
  revealed?: boolean;
  onReveal?: () => void;
}

/** The image has arrived (e.g. from cache, possibly before React attached onLoad). */
const hasArrived = (img: HTMLImageElement | null) => Boolean(img?.complete && img.naturalWidth > 0);

// Very tall or very wide images are cropped so a card never takes the whole screen.
const clampRatio = feedRatio;

export function PostImage(props: PostImageProps) {
  const t = useTranslations('posts');
  const { info, square, sensitive, spoiler, revealable = true, boxRatio, onReveal } = props;
  const alwaysShow = useAlwaysShowSensitive();
  const [ownRevealed, setRevealed] = useState(false);
  const revealed = props.revealed ?? ownRevealed;
  if (!sensitive || alwaysShow || revealed) return <ShownImage {...props} />;
  const placeholder = thumbhashDataUrl(info?.thumbhash);
  const ratio = square || !info ? '1 / 1' : String(boxRatio ?? clampRatio(info.width, info.height));
  const warning = spoiler || t('image.sensitive');
  return (
    <Frame $ratio={ratio}>
      <Cover style={placeholder ? { backgroundImage: `url(${placeholder})` } : undefined}>
        <span className="blur" aria-hidden="true" />
        <p>{warning}</p>
        {revealable && (
          <button
            type="button"
            onClick={() => (onReveal ? onReveal() : setRevealed(true))}
            aria-label={t('image.showLabel', { warning })}
          >
            {t('image.show')}
          </button>
        )}
      </Cover>
    </Frame>
  );
}

function ShownImage(props: PostImageProps) {
  const {
    src,
    info,
    alt,
    sizes = POST_IMAGE_SIZES,
    square,
    priority,
    whole,
    crop,
    boxRatio: albumRatio,
    eager,
  } = props;
  const t = useTranslations('posts');
  const thumbhash = info?.thumbhash;
  const imgRef = useRef<HTMLImageElement | null>(null);
  // Decoded after the commit, each image in a task of its own: a page of cards decoding (pixels +
  // PNG) in one effect pass was a long task right after hydration. An image that has already
  // arrived (cached, or the server-rendered page's first ones) needs no placeholder at all.
  // Until then the frame shows the skeleton colour.
  const [placeholder, setPlaceholder] = useState<string | null>(null);
  useEffect(() => {
    if (!thumbhash || hasArrived(imgRef.current)) return undefined;
    const timer = setTimeout(() => setPlaceholder(thumbhashDataUrl(thumbhash)), 0);
    return () => clearTimeout(timer);
  }, [thumbhash]);
  const [loaded, setLoaded] = useState(false);
  const [viewing, setViewing] = useState(false);
  const boxRatio = square || !info ? 1 : (albumRatio ?? clampRatio(info.width, info.height));
  const ratio = square || !info ? '1 / 1' : String(boxRatio);
  // A photo wider than its box is drawn wider than the box: ask for a candidate that wide. The
  // whole photo is at most the box's width.
  const drawnSizes =
    info && !whole && !crop?.fit ? scaledSizes(sizes, coverScale(info.width, info.height, boxRatio)) : sizes;
  const background = placeholder ? { backgroundImage: `url(${placeholder})` } : undefined;
  // The post page sizes the image itself (the button wraps it): its box has the photo's ratio.
  const boxStyle = whole ? (info ? { aspectRatio: `${info.width} / ${info.height}` } : null) : cropStyle(crop);
  const img = (
    <img
      src={src}
      srcSet={info?.srcset || undefined}
      sizes={info?.srcset ? drawnSizes : undefined}
      alt={alt}
      width={info?.width}
      height={info?.height}
      loading={priority || eager ? 'eager' : 'lazy'}
      fetchPriority={priority ? 'high' : undefined}
      decoding="async"
      onLoad={() => setLoaded(true)}
      ref={(node) => {
        imgRef.current = node;
        if (hasArrived(node) && !loaded) setLoaded(true);
      }}
      // The first image on screen is painted as it arrives (over its placeholder) instead of
      // waiting for onLoad and a fade: it is the page's largest paint.
      style={{ ...boxStyle, opacity: loaded || !thumbhash || priority ? 1 : 0 }}
    />
  );
  if (!whole)
    return (
      <Frame $ratio={ratio} style={background}>
        {img}
      </Frame>
    );

  // Never wider than the column, the stored image, or what keeps its height within the window.
  return (
    <WholeFrame>
      <OpenButton
        type="button"
        aria-haspopup="dialog"
        onClick={() => (props.onOpen ? props.onOpen() : setViewing(true))}
        style={{ ...background, width: info ? wholeWidth(info) : '100%' }}
      >
        {img}
        <span className="visually-hidden">{t('image.openFullView')}</span>
      </OpenButton>
      {viewing &&
        createPortal(
          <Suspense fallback={null}>
            <PhotoViewer photos={[{ src, info, alt }]} onClose={() => setViewing(false)} />
          </Suspense>,
          document.body,
        )}
    </WholeFrame>
  );
}
