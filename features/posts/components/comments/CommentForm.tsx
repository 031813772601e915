import { Suspense, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { postsOf } from '../../state/postsSlice';
import styled from 'styled-components';
import { useTranslations } from 'use-intl/react';
import { fieldSurface } from '../../../../components/ui/TextField';
import { COMMENT_MAX } from '../../../../lib/limits';
import { commentProblem } from '../../../../lib/validation';
import { useAppDispatch, useAppSelector } from '../../../../store/hooks';
import { selectUser } from '../../../auth';
import { addComment } from '../../state/thunks';
import { Avatar } from '../../../../components/ui/Avatar';
import { Button } from '../../../../components/ui/Button';
import { Spinner } from '../../../../components/ui/Spinner';
import { appTheme } from '../../../../themes';
import { MentionSuggestions } from '../../../mentions';

// Relative: the mention list under the field spans the whole row (avatar to button), not only the field.
const Form = styled.form`
  position: relative;
  display: flex;
  gap: 10px;
  align-items: flex-start;
  padding: 12px 0;
  textarea {
    width: 100%;
    min-height: 42px;
    padding: 10px 12px;
    ${fieldSurface}
    resize: vertical;
  }
`;

const Error = styled.p`
  margin: 4px 0 0;
  font-size: 13px;
  color: ${appTheme.color.danger};
`;

export function CommentForm({ postId }: { postId: string }) {
  const t = useTranslations('comments');
  const dispatch = useAppDispatch();
  const me = useAppSelector(selectUser);
  const busy = useAppSelector((state) => postsOf(state).addComment.status === 'loading');
  const [message, setMessage] = useState('');
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const field = useRef<HTMLTextAreaElement>(null);
  // The mention list's code loads at the first `@` and stays (issue 68, item 31).
  const [mentions, setMentions] = useState(false);
  if (!mentions && message.includes('@')) setMentions(true);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problem = commentProblem(message);
    setError(problem === 'empty' ? t('required') : problem === 'tooLong' ? t('tooLong', { max: COMMENT_MAX }) : null);
    if (problem) return;
    const result = await dispatch(addComment({ postId, message: message.trim() }));
    if (addComment.fulfilled.match(result)) setMessage('');
  };

  // Enter sends, Shift+Enter is a new line (issue 68, item 6); not while an input method composes.
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key !== 'Enter' || event.shiftKey || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.nativeEvent.isComposing) return;
    event.preventDefault();
    if (!busy) event.currentTarget.form?.requestSubmit();
  };
  const describedBy = [`${id}-hint`, error ? `${id}-error` : null].filter(Boolean).join(' ');

  return (
    <Form onSubmit={submit} noValidate>
      <Avatar src={me?.avatar} name={me?.username ?? ''} size={32} />
      <div style={{ flex: 1 }}>
        <label htmlFor={id} className="visually-hidden">
          {t('label')}
        </label>
        <textarea
          ref={field}
          id={id}
          value={message}
          maxLength={COMMENT_MAX}
          onChange={(event) => setMessage(event.target.value)}
          onKeyDown={onKeyDown}
          placeholder={t('placeholder')}
          aria-invalid={Boolean(error)}
          aria-describedby={describedBy}
        />
        <span id={`${id}-hint`} className="visually-hidden">
          {t('hint')}
        </span>
        {mentions && (
          <Suspense fallback={null}>
            <MentionSuggestions field={field} />
          </Suspense>
        )}
        {error && (
          <Error id={`${id}-error`} role="alert">
            {error}
          </Error>
        )}
      </div>
      <Button type="submit" disabled={busy} aria-busy={busy}>
        {busy && <Spinner />} {t('send')}
      </Button>
    </Form>
  );
}
