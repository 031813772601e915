/**
 * The posts' texts in the reader's language (issue 75): Spanish and Arabic (right to left, six
 * plural forms), from the components (useTranslations) and from the thunks (textOf, when raised).
 */
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { CommentForm } from '../../../../features/posts/components/comments/CommentForm';
import { PostCard } from '../../../../features/posts/components/PostCard';
import { PostForm } from '../../../../features/posts/components/PostForm';
import { TaggedPosts } from '../../../../features/posts/components/TaggedPosts';
import { uploadImage, selectUploads } from '../../../../features/uploads/state/uploadFilesSlice';
import { setAppTexts } from '../../../../lib/i18n/appTexts';
import { pageIntl } from '../../../../lib/i18n/pageIntl';
import { UPLOAD_MAX_BYTES } from '../../../../lib/limits';
import { makeStore } from '../../../../store';
import { buildComment, buildPost, buildUser } from '../../support/factories';
import { renderWithProviders, signedInState } from '../../support/renderWithProviders';
import { server } from '../../support/server';

const me = buildUser({ username: 'me' });
const toastsOf = (store: ReturnType<typeof makeStore>) => store.getState().toasts.map((toast) => toast.message);

// The thunks' language is the last page's: back to English, as the other files expect it.
afterEach(() => setAppTexts(pageIntl('en')));

describe('the posts in Spanish', () => {
  it('names the card’s controls and counts its comments with the plural form', () => {
    const post = buildPost({ _id: 'p1', creator: 'bob', likesCount: 1, dislikesCount: 0, commentsCount: 1 });
    const { rerender } = renderWithProviders(<PostCard post={post} />, {
      language: 'es',
      preloadedState: signedInState(me),
    });
    expect(screen.getByRole('link', { name: '1 comentario, abrir publicación' })).toHaveAttribute(
      'href',
      '/post/p1#comments',
    );
    expect(screen.getByRole('button', { name: 'Me gusta la publicación, 1 Me gusta' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Compartir la publicación de bob' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Guardar' })).toHaveAttribute('aria-pressed', 'false');

    rerender(<PostCard post={{ ...post, commentsCount: 2 }} />);
    expect(screen.getByRole('link', { name: '2 comentarios, abrir publicación' })).toBeInTheDocument();
  });

  it('says the form’s rules and what is left in Spanish, the tag’s reason beside the refusal', async () => {
    const user = userEvent.setup();
    renderWithProviders(<PostForm post={null} />, { language: 'es', preloadedState: signedInState(me) });
    expect(screen.getByText('Formatos permitidos: JPEG, PNG. Tamaño máximo: 4 MB.')).toBeInTheDocument();
    expect(screen.getByText('Quedan 255 caracteres')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Añadir etiqueta' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Escribe una etiqueta');
    expect(screen.getByTestId('tag-reason')).toHaveTextContent('Escribe una palabra para usarla como etiqueta');
  });

  it('toasts a like in Spanish, the text read when the answer comes', async () => {
    server.use(
      http.patch('/api/posts/p1/like', () =>
        HttpResponse.json({ likesCount: 1, dislikesCount: 0, myReaction: 'like' }),
      ),
    );
    const user = userEvent.setup();
    const { store } = renderWithProviders(<PostCard post={buildPost({ _id: 'p1', creator: 'bob' })} />, {
      language: 'es',
      preloadedState: signedInState(me),
    });
    await user.click(screen.getByRole('button', { name: 'Me gusta la publicación, 0 Me gusta' }));
    await waitFor(() => expect(toastsOf(store)).toEqual(['Te gusta']));
  });
});

describe('the posts in Arabic', () => {
  it('counts with the Arabic plural forms, and names a count its control shows in digits (label in name)', () => {
    const post = buildPost({ _id: 'p1', creator: 'bob', likesCount: 11, dislikesCount: 0, commentsCount: 2 });
    const { rerender } = renderWithProviders(<PostCard post={post} />, {
      language: 'ar',
      preloadedState: signedInState(me),
    });
    // The link shows "2": its name says 2 too, not only the dual's word (WCAG 2.5.3).
    expect(screen.getByRole('link', { name: '2 تعليق، فتح المنشور' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'الإعجاب بالمنشور، 11 إعجابًا' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '11 إعجابًا، عرض من أعجبهم' })).toBeEnabled();

    rerender(<PostCard post={{ ...post, commentsCount: 5, likesCount: 0 }} />);
    expect(screen.getByRole('link', { name: '5 تعليقات، فتح المنشور' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '0 إعجاب' })).toBeDisabled();
  });

  it('shows a tag page’s empty state, its words chosen by how many tags were searched (two: the dual)', () => {
    server.use(http.get('/api/posts/tagged', () => HttpResponse.json([])));
    renderWithProviders(<TaggedPosts tags={['sea', 'boats']} />, { language: 'ar' });
    expect(screen.getByRole('heading', { level: 1, name: 'الوسوم' })).toBeInTheDocument();
    expect(screen.getByRole('list', { name: 'الوسوم التي بحثت عنها' })).toBeInTheDocument();
    // Two tags: the dual ("these two tags"), neither the singular nor the plural.
    return waitFor(() =>
      expect(screen.getByText('لا يحمل أي منشور هذين الوسمين بعد. كن الأول عبر «إنشاء منشور».')).toBeInTheDocument(),
    );
  });

  it('asks for a comment in Arabic, and toasts the comment added', async () => {
    server.use(http.post('/api/posts/p1/comments', () => HttpResponse.json(buildComment(), { status: 201 })));
    const user = userEvent.setup();
    const { store } = renderWithProviders(<CommentForm postId="p1" />, {
      language: 'ar',
      preloadedState: signedInState(me),
    });
    const field = screen.getByRole('textbox', { name: 'اكتب تعليقًا' });
    expect(field).toHaveAccessibleDescription('اضغط Enter للإرسال، وShift+Enter لسطر جديد.');
    await user.click(screen.getByRole('button', { name: 'نشر' }));
    expect(screen.getByRole('alert')).toHaveTextContent('يُرجى كتابة تعليق');

    await user.type(field, 'جميل{Enter}');
    await waitFor(() => expect(toastsOf(store)).toEqual(['أُضيف التعليق']));
  });

  it('refuses a file too big in Arabic, in the upload’s state and its toast', async () => {
    setAppTexts(pageIntl('ar'));
    const store = makeStore(signedInState(me));
    const big = new File(['x'], 'photo.png', { type: 'image/png' });
    Object.defineProperty(big, 'size', { value: UPLOAD_MAX_BYTES });
    await store.dispatch(uploadImage({ file: big, kind: 'post' }));
    expect(selectUploads(store.getState()).post.error).toBe('الملف كبير جدًا');
    expect(toastsOf(store)).toEqual(['الملف كبير جدًا']);
  });
});
