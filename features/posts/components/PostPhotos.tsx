/**
 * A post's photos on its card: one photo as it always was, an album (issue 71) in a carousel. In a
 * feed each photo links to the post and a double tap on any of them likes it (DoubleTapLike); on the
 * post's page each opens the full view at that photo.
 */
import { lazy, Suspense, useState } from 'react';
import { createPortal } from 'react-dom';
import { useTranslations } from 'use-intl/react';
import type { Post } from '../../../lib/types';
import { feedRatio } from '../../../lib/photoBox';
import { links } from '../../../lib/pages';
import { AlbumCarousel } from './AlbumCarousel';
import { DoubleTapLike } from './DoubleTapLike';
import { PostImage } from './PostImage';

/** The full view is its own chunk, as for one photo (PostImage). */
const PhotoViewer = lazy(() => import('./PhotoViewer'));

/**
 * A post's alt texts, in the reader's language: `imageAlt` is the author's, the generated one only
 * when they wrote none; `photoAlt` is photo `index`'s own, else the post's (the first) or its place.
 */
export function useImageAlts() {
  const t = useTranslations('posts');
  const imageAlt = (post: Post): string =>
    post.alt ||
    (post.message
      ? t('photos.imageAltWithMessage', { author: post.creator, message: post.message.slice(0, 100) })
      : t('photos.imageAlt', { author: post.creator }));
  const photoAlt = (post: Post, index: number): string => {
    const own = post.images[index]?.alt;
    if (own) return own;
    return index === 0
      ? imageAlt(post)
      : t('photos.photoAlt', { index: index + 1, count: post.images.length, author: post.creator });
  };
  return { imageAlt, photoAlt };
}

interface PostPhotosProps {
  post: Post;
  priority?: boolean;
  /** The post's own page: whole photos that open the full view, no link to the post. */
  standalone?: boolean;
  liked: boolean;
  onLike: () => unknown;
}

export function PostPhotos({ post, priority, standalone, liked, onLike }: PostPhotosProps) {
  const t = useTranslations('posts');
  const { imageAlt, photoAlt } = useImageAlts();
  const [revealed, setRevealed] = useState(false);
  const [viewing, setViewing] = useState<number | null>(null);
  // Where the full view closed: the album on the page shows that photo too.
  const [closedAt, setClosedAt] = useState<{ index: number } | undefined>(undefined);
  const photos = post.images ?? [];
  const postHref = links.post(post._id);

  if (photos.length < 2) {
    const image = (
      <PostImage
        src={post.image}
        info={post.imageInfo}
        alt={imageAlt(post)}
        priority={priority}
        sensitive={post.sensitive}
        spoiler={post.spoiler}
        whole={standalone}
        crop={post.crop}
      />
    );
    // A sensitive image holds its Show button, which a link around it would swallow. In a feed,
    // a double click or tap on the image likes the post (DoubleTapLike).
    return standalone || post.sensitive ? (
      image
    ) : (
      <DoubleTapLike href={postHref} liked={liked} onLike={onLike}>
        {image}
      </DoubleTapLike>
    );
  }

  // One box for the whole album in feeds, from the first photo's stored size (as Instagram): the
  // card keeps its height whichever photo shows. The post page shows each photo whole at its own size.
  const first = photos[0].imageInfo;
  const boxRatio = standalone || !first ? undefined : feedRatio(first.width, first.height);
  return (
    <>
      <AlbumCarousel count={photos.length} label={t('photos.album', { author: post.creator })} show={closedAt}>
        {(index, { preload }) => {
          const photo = photos[index];
          const image = (
            <PostImage
              src={photo.image}
              info={photo.imageInfo}
              alt={photoAlt(post, index)}
              priority={priority && index === 0}
              eager={preload}
              sensitive={post.sensitive}
              spoiler={post.spoiler}
              revealed={revealed}
              onReveal={() => setRevealed(true)}
              whole={standalone}
              onOpen={() => setViewing(index)}
              crop={photo.crop}
              boxRatio={boxRatio}
            />
          );
          return standalone || post.sensitive ? (
            image
          ) : (
            <DoubleTapLike href={postHref} liked={liked} onLike={onLike}>
              {image}
            </DoubleTapLike>
          );
        }}
      </AlbumCarousel>
      {viewing !== null &&
        createPortal(
          <Suspense fallback={null}>
            <PhotoViewer
              photos={photos.map((p, i) => ({ src: p.image, info: p.imageInfo, alt: photoAlt(post, i) }))}
              start={viewing}
              onClose={(at) => {
                setViewing(null);
                setClosedAt({ index: at });
              }}
            />
          </Suspense>,
          document.body,
        )}
    </>
  );
}
