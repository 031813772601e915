import { useId, type InputHTMLAttributes, type TextareaHTMLAttributes } from 'react';
import styled, { css } from 'styled-components';
import { appTheme } from '../../themes';

/** A form field's box in the theme's colours: every input, list and text box of the app. */
export const fieldSurface = css`
  border-radius: 10px;
  border: 1px solid ${appTheme.color.border};
  background: ${appTheme.color.bg};
  color: ${appTheme.color.text};
`;

/** A label over its input or textarea, notes below: TextField, TextAreaField and the post form's fields. */
export const FieldWrap = styled.div`
  display: grid;
  gap: 6px;
  label { font-weight: 600; font-size: 14px; }
  input, textarea, select {
    width: 100%;
    padding: 10px 12px;
    ${fieldSurface}
    &:focus { outline: 2px solid ${appTheme.color.focus}; outline-offset: 0; border-color: transparent; }
    &[aria-invalid='true'] { border-color: ${appTheme.color.danger}; }
  }
  textarea { min-height: 96px; resize: vertical; }
`;

const Note = styled.p<{ $error?: boolean }>`
  margin: 0;
  font-size: 13px;
  color: ${({ $error, theme }) => ($error ? theme.color.danger : theme.color.textMuted)};
`;

interface FieldProps {
  label: string;
  error?: string | false;
  hint?: string;
}

export function TextField({ label, error, hint, ...input }: FieldProps & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  const described = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(' ') || undefined;
  return (
    <FieldWrap>
      <label htmlFor={id}>{label}</label>
      <input id={id} aria-invalid={Boolean(error)} aria-describedby={described} {...input} />
      {hint && <Note id={`${id}-hint`}>{hint}</Note>}
      {error && (
        <Note id={`${id}-error`} $error role="alert">
          {error}
        </Note>
      )}
    </FieldWrap>
  );
}

export function TextAreaField({
  label,
  error,
  hint,
  ...input
}: FieldProps & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const id = useId();
  const described = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(' ') || undefined;
  return (
    <FieldWrap>
      <label htmlFor={id}>{label}</label>
      <textarea id={id} aria-invalid={Boolean(error)} aria-describedby={described} {...input} />
      {hint && <Note id={`${id}-hint`}>{hint}</Note>}
      {error && (
        <Note id={`${id}-error`} $error role="alert">
          {error}
        </Note>
      )}
    </FieldWrap>
  );
}
