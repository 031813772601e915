import { useRouter } from 'next/router';
import { useEffect, useRef } from 'react';
import { useTranslations } from 'use-intl/react';
import { useAppDispatch, useAppSelector } from '../../../store/hooks';
import { selectUser } from '../../auth';
import { editorOpened } from '../../posts';
import { showToast } from '../../toasts';
import { uploadImage } from '../../uploads';
import { takeSharedImage } from '../lib/takeSharedImage';

/** The English of `share.noSharedImage` (the tests'). */
export const NO_SHARED_IMAGE = 'The shared image is no longer here. Please share it again.';

/**
 * `/home?shared=image`, where the share target sends the person (signed in first if need be): opens
 * the composer with the image the worker kept, uploading it as a picked file would be.
 */
export function SharedImageOpener() {
  const t = useTranslations('share');
  const dispatch = useAppDispatch();
  const router = useRouter();
  const signedIn = Boolean(useAppSelector(selectUser));
  const shared = router.isReady && router.query.shared === 'image';
  const noSharedImage = t('noSharedImage');
  // Once per visit: the image is taken out of the cache by the first look.
  const taken = useRef(false);

  useEffect(() => {
    if (!signedIn || !shared || taken.current) return;
    taken.current = true;
    void router.replace('/home', undefined, { shallow: true });
    void takeSharedImage()
      .catch(() => null)
      .then((file) => {
        if (!file) {
          dispatch(showToast(noSharedImage, 'error'));
          return;
        }
        dispatch(editorOpened(null));
        void dispatch(uploadImage({ file, kind: 'post' }));
      });
  }, [dispatch, router, shared, signedIn, noSharedImage]);

  return null;
}
