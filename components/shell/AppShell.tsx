import { useRouter } from 'next/router';
import {
  lazy,
  Suspense,
  useCallback,
  useDeferredValue,
  useEffect,
  useEffectEvent,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
  type ReactNode,
} from 'react';
import styled from 'styled-components';
import { useTranslations } from 'use-intl/react';

import { ERROR_ROUTES, links, OPEN_ROUTES, PUBLIC_ROUTES } from '../../lib/pages';
import {
  dropSessionHint,
  fetchLoggedUser,
  hasSessionHint,
  logout,
  selectSession,
  selectUser,
  userCleared,
  VerifyEmailBanner,
} from '../../features/auth';
import { useAppDispatch, useAppSelector } from '../../store/hooks';
import { preloadApiClient } from '../../services/apiClient';
import { offlineText } from '../../services/errorTexts';
import { openAfterSignIn } from '../../services/afterSignIn';
import { watchHistory } from '../../hooks/historyNavigation';
import { editorOpened, loadPostsState, PostEditor, selectEditor } from '../../features/posts';
import { loadStoredTheme } from '../../features/settings';
import { showToast, Toasts } from '../../features/toasts';
import { TOAST_AUTH_ERROR_MS } from '../../lib/limits';
import { LoggedOutNavbar } from './LoggedOutNavbar';
import { NavbarFrame } from './NavbarFrame';
import { PageLoading } from './PageLoading';

// The signed-in navbar is for members only, so visitors never download it; an empty bar holds its
// place until it loads. React.lazy, not next/dynamic: it renders in short interruptible tasks
// (why and figures: docs/frontend.md, Performance).
const loadLoggedInNavbar = () => import('./LoggedInNavbar');
const LoggedInNavbar = lazy(loadLoggedInNavbar);
const emptyNavbar = <NavbarFrame aria-hidden="true" />;

const Main = styled.main<{ $flush: boolean }>`
  padding-top: ${({ $flush }) => ($flush ? '0' : 'var(--navbar-height)')};
  min-height: 100vh;
`;

const noSubscription = () => () => {};
const onServer = () => false;

/**
 * The session hint cookie as this page load first read it: false on the server and in the render
 * that hydrates its HTML, the cookie from the next render on (at once when not hydrating), kept for
 * the component's life as a state would be.
 */
function useSessionHint(): boolean {
  const [readOnce] = useState(() => {
    let hint: boolean | undefined;
    return () => (hint ??= hasSessionHint());
  });
  return useSyncExternalStore(noSubscription, readOnce, onServer);
}

export function AppShell({ children }: { children: ReactNode }) {
  const dispatch = useAppDispatch();
  const router = useRouter();
  const t = useTranslations('shell');
  const session = useAppSelector(selectSession);
  const user = useAppSelector(selectUser);
  const editor = useAppSelector(selectEditor);

  const isPublic = PUBLIC_ROUTES.includes(router.pathname);
  const isOpen = OPEN_ROUTES.includes(router.pathname);

  // Read after hydration (the server cannot see the cookie), then pages may start loading at once.
  const hinted = useSessionHint();

  // Only the first page of the visit decides; later navigation keeps the session state.
  const startVisit = useEffectEvent(() => {
    const hint = hasSessionHint();
    // Likely a member: fetch the navbar's code alongside the session lookup, not after it.
    if (hint || !isPublic) void loadLoggedInNavbar();
    dispatch(loadStoredTheme());
    // A page the server rendered for a signed-in viewer brought the user along: no lookup.
    if (session === 'loggedIn') return;
    // A visitor on a public or open page needs no lookup (and gets no 401 in the console);
    // private pages always ask, so a session the hint cookie does not reflect still counts.
    if ((isPublic || isOpen) && !hint) dispatch(userCleared());
    else
      void dispatch(fetchLoggedUser()).then((result) => {
        // Came back with a session that ended while no page was open (revoked elsewhere, expired
        // past renewal): say so where the guard lands them, once (issue 68, item 20).
        if (!hint || !fetchLoggedUser.rejected.match(result) || result.payload === offlineText()) return;
        dropSessionHint();
        dispatch(showToast(t('sessionEnded'), 'info', TOAST_AUTH_ERROR_MS * 2));
      });
  });
  useEffect(() => startVisit(), []);

  // Back and Forward: which navigation brought a page, and each history entry's scroll position
  // put back (hooks/historyNavigation.ts). The router is the same object for the whole visit.
  const watchRouter = useEffectEvent(() => watchHistory(router));
  useEffect(() => watchRouter(), []);

  // axios is its own chunk (services/apiClient.ts), which a page's first call fetches. A likely
  // member gets it once the page is idle, so no click waits for it; a visitor's page stays light
  // until they start filling a form (sign-in, sign-up).
  useEffect(() => {
    if (hinted || !isPublic) {
      if (typeof requestIdleCallback === 'undefined') {
        const timer = setTimeout(preloadApiClient, 1000);
        return () => clearTimeout(timer);
      }
      const idle = requestIdleCallback(preloadApiClient, { timeout: 3000 });
      return () => cancelIdleCallback(idle);
    }
    const onFocus = (event: FocusEvent) => {
      if (event.target instanceof Element && event.target.closest('form')) preloadApiClient();
    };
    document.addEventListener('focusin', onFocus);
    return () => document.removeEventListener('focusin', onFocus);
  }, [hinted, isPublic]);

  // A visitor on a private page signs in and comes back to it (`/login?next=`, issue 68, item 3);
  // who signed out (or whose session ended) during the visit goes to the landing page.
  const signedInOnce = useRef(false);
  useEffect(() => {
    if (isOpen || session === 'loading') return;
    if (session === 'loggedIn') signedInOnce.current = true;
    if (session === 'loggedIn' && isPublic)
      openAfterSignIn(router, router.pathname === '/login' ? router.query.next : undefined);
    if (session === 'loggedOut' && !isPublic)
      void router.replace(signedInOnce.current ? links.landing() : links.login(router.asPath));
  }, [session, isPublic, isOpen, router]);

  const onLogout = useCallback(async () => {
    await dispatch(logout());
    await router.push(links.landing());
  }, [dispatch, router]);

  const onCreatePost = useCallback(() => {
    void loadPostsState().then(() => dispatch(editorOpened(null)));
  }, [dispatch]);

  const signedIn = session === 'loggedIn' && user;
  // With the session hint, a private page starts fetching its data while the user is looked up;
  // should the lookup fail, the guard above sends the visitor to / all the same.
  const optimistic = session === 'loading' && hinted;
  const mayRender = isPublic || isOpen || signedIn || optimistic;
  // Showing a page is deferred (transition priority, short tasks); hiding never is: after a logout
  // the back button would show the previous private page for the render a deferred value lags.
  // The profile's full-bleed layout follows the page itself, so the loading state never jumps.
  const deferredShow = useDeferredValue(mayRender);
  const showPage = mayRender && deferredShow;
  // The page inside a Suspense boundary, so React hydrates it after the shell in short tasks; one
  // memoized element, since new props on a re-render of the shell would hydrate it at once in one
  // long task (docs/frontend.md, Performance).
  const page = useMemo(() => <Suspense fallback={<PageLoading />}>{children}</Suspense>, [children]);
  const flush = showPage && Boolean(signedIn || optimistic) && router.pathname === '/profile/[profileName]';

  // The lazy navbar and banner arrive in the server's HTML, and their boundaries stay dehydrated
  // until their chunks load. New props before then (any re-render of the shell: the session hint,
  // the theme) make React drop that HTML for the fallback and render it again when the chunk
  // arrives: the bar emptied and the banner vanished and came back (issue 35). One element each,
  // made again only when what they show changes.
  const viewer = signedIn ? user : null;
  const memberNavbar = useMemo(
    () =>
      viewer && (
        <Suspense fallback={emptyNavbar}>
          <LoggedInNavbar user={viewer} onCreatePost={onCreatePost} onLogout={onLogout} />
        </Suspense>
      ),
    [viewer, onCreatePost, onLogout],
  );
  // Not on the error pages: HTML made for anyone, where a banner arriving after the lookup would
  // push the page down.
  const isErrorPage = ERROR_ROUTES.includes(router.pathname);
  const banner = useMemo(
    () =>
      viewer &&
      !isPublic &&
      !isErrorPage &&
      !viewer.emailVerified && (
        <Suspense fallback={null}>
          <VerifyEmailBanner user={viewer} underNavbar={flush} />
        </Suspense>
      ),
    [viewer, isPublic, isErrorPage, flush],
  );

  let navbar: ReactNode;
  // The public pages are the visitors' (spec: the logged-out navbar); a member is sent home from them.
  if (isPublic) navbar = <LoggedOutNavbar />;
  else if (memberNavbar) navbar = memberNavbar;
  else if (session === 'loading') navbar = emptyNavbar;
  else navbar = <LoggedOutNavbar />;

  return (
    <>
      <a href="#content" className="skip-link">
        {t('skipToContent')}
      </a>
      {navbar}
      <Main id="content" tabIndex={-1} $flush={flush}>
        {banner}
        {showPage ? page : <PageLoading />}
      </Main>
      {signedIn && editor.open && (
        <Suspense fallback={null}>
          <PostEditor />
        </Suspense>
      )}
      <Toasts />
    </>
  );
}
